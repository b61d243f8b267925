import crypto from 'node:crypto';
import type { DeviceCreate, DeviceCreated, DevicesQuery, DeviceUpdate } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toCount } from '../../db/mappers';
import type { ChangeContext } from '../../http/access';
import { AppError } from '../../http/errors';
import { recordChange } from '../audit/audit.repository';
import { toDevice } from './device.presenter';
import { deleteDevice, findDevice, insertDevice, listDevices, updateDevice } from './devices.repository';

/** The stored form of a device secret. It is 32 random bytes, so a fast hash is enough. */
export function hashDeviceSecret(secret: string): string {
  return `sha256:${crypto.createHash('sha256').update(secret).digest('hex')}`;
}

async function requireDevice(db: Database, portalId: string, deviceId: string) {
  const device = await findDevice(db, portalId, deviceId);
  if (!device) throw AppError.notFound('Lock');
  return device;
}

/** Adds a lock; answers its device secret this once. */
export async function createDevice(
  db: Database,
  context: ChangeContext,
  input: DeviceCreate,
): Promise<DeviceCreated> {
  const deviceSecret = crypto.randomBytes(32).toString('base64url');
  const id = crypto.randomUUID();
  const now = nowIso();
  return db.transaction().execute(async (trx) => {
    await insertDevice(trx, {
      id,
      portal_id: context.portalId,
      name: input.name,
      model: input.model,
      serial: input.serial || null,
      time_zone: input.timeZone,
      secret_hash: hashDeviceSecret(deviceSecret),
      created_at: now,
      updated_at: now,
    });
    const device = toDevice((await findDevice(trx, context.portalId, id))!);
    await recordChange(trx, context, {
      action: 'device.create',
      entityType: 'device',
      entityId: id,
      after: device,
    });
    return { device, deviceSecret };
  });
}

export async function getDevice(db: Database, portalId: string, deviceId: string) {
  return toDevice(await requireDevice(db, portalId, deviceId));
}

export async function saveDevice(
  db: Database,
  context: ChangeContext,
  deviceId: string,
  update: DeviceUpdate,
) {
  return db.transaction().execute(async (trx) => {
    const before = toDevice(await requireDevice(trx, context.portalId, deviceId));
    await updateDevice(trx, context.portalId, deviceId, update);
    const after = toDevice((await findDevice(trx, context.portalId, deviceId))!);
    await recordChange(trx, context, {
      action: 'device.update',
      entityType: 'device',
      entityId: deviceId,
      before,
      after,
    });
    return after;
  });
}

/** Deletes a lock: everyone's access to it goes; its history stays. */
export async function removeDevice(db: Database, context: ChangeContext, deviceId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = toDevice(await requireDevice(trx, context.portalId, deviceId));
    await deleteDevice(trx, context.portalId, deviceId);
    await recordChange(trx, context, {
      action: 'device.delete',
      entityType: 'device',
      entityId: deviceId,
      before,
    });
  });
}

export async function getDevicesPage(db: Database, portalId: string, query: DevicesQuery) {
  const { rows, total } = await listDevices(db, portalId, query);
  return { items: rows.map(toDevice), total: toCount(total) };
}

import crypto from 'node:crypto';
import type { DeviceCreate, DeviceCreated, DevicesQuery, DeviceUpdate } from '@latchkey/shared';
import { encodeListCursor } from '@latchkey/shared';
import type { DeviceRow } from '../../db/schema';
import type { Database } from '../../db/database';
import { nowIso, toCount } from '../../db/mappers';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { zoneFilter } from '../../base/zones/zone-scope';
import { assertMayAddLocks, type LockAllowance } from '../subscriptions/plan-allowance';
import { assertPortalMayGrow } from '../subscriptions/portal-standing.service';
import { toDevice } from './device.presenter';
import { deleteDevice, findDevice, insertDevice, listDevices, updateDevice } from './devices.repository';

/** The stored form of a device secret. It is 32 random bytes, so a fast hash is enough. */
export function hashDeviceSecret(secret: string): string {
  return `sha256:${crypto.createHash('sha256').update(secret).digest('hex')}`;
}

/**
 * The device secret in Mosquitto's password-file form (`$7$`: PBKDF2-SHA512, 101 iterations, a
 * 12-byte salt, as mosquitto_passwd writes it), so an external broker can check locks itself.
 */
export function brokerPasswordHash(secret: string, salt = crypto.randomBytes(12)): string {
  const iterations = 101;
  const hash = crypto.pbkdf2Sync(secret, salt, iterations, 64, 'sha512');
  return `$7$${iterations}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Whether `secret` matches a `$7$` hash written by brokerPasswordHash (Mosquitto's own check). */
export function verifyBrokerPassword(secret: string, passwordHash: string): boolean {
  const [, kind, iterations, salt, hash] = passwordHash.split('$');
  if (kind !== '7' || !iterations || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = crypto.pbkdf2Sync(secret, Buffer.from(salt, 'base64'), Number(iterations), 64, 'sha512');
  return expected.length === actual.length && crypto.timingSafeEqual(expected, actual);
}

async function requireDevice(db: Database, portalId: string, deviceId: string) {
  const device = await findDevice(db, portalId, deviceId);
  if (!device) throw AppError.notFound('Lock');
  return device;
}

/**
 * Adds a lock; answers its device secret this once. `alsoInside` runs in the same transaction once
 * the lock exists (a code lock's master code), so a refusal there adds nothing.
 */
export async function createDevice(
  db: Database,
  context: ChangeContext,
  input: DeviceCreate,
  alsoInside?: (trx: Database, device: DeviceRow) => Promise<void>,
  allowance: LockAllowance = 'enforced',
): Promise<DeviceCreated> {
  // A lapsed portal (a paid plan not paid up) keeps its locks but adds none (portal-standing.service).
  await assertPortalMayGrow(db, context.portalId);
  const deviceSecret = crypto.randomBytes(32).toString('base64url');
  const id = crypto.randomUUID();
  const now = nowIso();
  return changeAccess(db, async (trx, touch) => {
    // Within its plan's allowance (Free: 2 locks), counted in this transaction (plan-allowance.ts).
    if (allowance === 'enforced') await assertMayAddLocks(trx, context.portalId, 1);
    await insertDevice(trx, {
      id,
      portal_id: context.portalId,
      name: input.name,
      model: input.model,
      serial: input.serial || null,
      time_zone: input.timeZone,
      secret_hash: hashDeviceSecret(deviceSecret),
      broker_password_hash: brokerPasswordHash(deviceSecret),
      created_at: now,
      updated_at: now,
    });
    const row = (await findDevice(trx, context.portalId, id))!;
    await alsoInside?.(trx, row);
    // Its first credential set (and a code lock's master code in it).
    await touch(context.portalId, { locks: [id] });
    const device = toDevice(row);
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
  return changeAccess(db, async (trx, touch) => {
    const before = toDevice(await requireDevice(trx, context.portalId, deviceId));
    await updateDevice(trx, context.portalId, deviceId, update);
    // Its time zone is in its set (schedules are read on its wall clock).
    await touch(context.portalId, { locks: [deviceId] });
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
  // Another portal's zone is a 404, as an unknown one.
  const zoneIds = query.filterBy === 'zone' ? await zoneFilter(db, portalId, query.filterValue) : undefined;
  const { rows, total, next } = await listDevices(db, portalId, query, zoneIds);
  return { items: rows.map(toDevice), total: toCount(total), ...(next && { next: encodeListCursor(next) }) };
}

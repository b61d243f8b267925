import crypto from 'node:crypto';
import type { Fingerprint, FingerprintCreate, FingerprintsQuery, FingerprintUpdate } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toCount, toIso } from '../../db/mappers';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { listAccessPaths } from '../access/access.repository';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { recordChange } from '../../base/audit/audit.repository';
import { findDevice } from '../devices/devices.repository';
import { findMember } from '../../base/tenancy/memberships.repository';
import {
  bindCredentialToDevice,
  findLiveFingerprintAt,
  insertCredential,
  listBoundDevices,
  listCredentialsPage,
  revokeCredential,
  updateCredential,
  type HeldCredentialRow,
} from './credentials.repository';
import { holderOf } from './holder';

// A fingerprint is enrolled on one lock's reader: the lock knows it by the template id it gave it,
// so the template id is unique per lock, and the fingerprint only ever works at that lock.

async function present(db: Database, portalId: string, rows: HeldCredentialRow[]): Promise<Fingerprint[]> {
  const bound = await listBoundDevices(
    db,
    portalId,
    rows.map((r) => r.id),
  );
  return rows.flatMap((row) => {
    const device = bound.get(row.id)?.[0];
    // A fingerprint whose lock was deleted was revoked with it; nothing else lacks a lock.
    if (!device) return [];
    return [
      {
        _id: row.id,
        name: row.name,
        finger: row.variant as Fingerprint['finger'],
        templateId: row.secret,
        holder: holderOf(row),
        device,
        validFrom: toIso(row.valid_from),
        validUntil: toIso(row.valid_until),
        createdAt: toIso(row.created_at),
      },
    ];
  });
}

async function page(db: Database, portalId: string, query: Parameters<typeof listCredentialsPage>[3]) {
  const { rows, total } = await listCredentialsPage(db, portalId, 'fingerprint', query);
  return { items: await present(db, portalId, rows), total: toCount(total) };
}

async function fingerprintById(db: Database, portalId: string, id: string): Promise<Fingerprint> {
  const { items } = await page(db, portalId, { skip: 0, limit: 1, descending: false, id });
  if (!items[0]) throw AppError.notFound('Fingerprint');
  return items[0];
}

/** The person must reach the lock the finger is enrolled on. */
async function assertCanReach(db: Database, portalId: string, userId: string, deviceId: string) {
  const member = await findMember(db, portalId, userId);
  if (!member) throw AppError.notFound('Person');
  const device = await findDevice(db, portalId, deviceId);
  if (!device) throw AppError.notFound('Lock');
  if ((await listAccessPaths(db, portalId, { deviceId, userId })).length === 0) {
    const message = `${member.email} has no access to ${device.name}; give them access first`;
    throw AppError.badRequest(message, [{ path: 'body.userId', message }]);
  }
}

const isoOrNull = (value: string | null) => value && new Date(value).toISOString();

export const getFingerprint = fingerprintById;

export function getFingerprintsPage(db: Database, portalId: string, query: FingerprintsQuery) {
  return page(db, portalId, {
    ...query,
    sortBy: ({ name: 'name', finger: 'variant', createdAt: 'created_at' } as const)[
      query.sortBy ?? 'createdAt'
    ],
    userId: query.filterBy === 'userId' ? query.filterValue : undefined,
    deviceId: query.filterBy === 'deviceId' ? query.filterValue : undefined,
  });
}

export async function getFingerprintsOfUser(db: Database, portalId: string, userId: string) {
  if (!(await findMember(db, portalId, userId))) throw AppError.notFound('Person');
  return (await page(db, portalId, { skip: 0, limit: 200, descending: false, userId })).items;
}

export async function getFingerprintsOfDevice(db: Database, portalId: string, deviceId: string) {
  if (!(await findDevice(db, portalId, deviceId))) throw AppError.notFound('Lock');
  return (await page(db, portalId, { skip: 0, limit: 10_000, descending: false, deviceId })).items;
}

/** Records a finger enrolled at a lock for a person who can reach it. */
export async function createFingerprint(
  db: Database,
  context: ChangeContext,
  input: Required<FingerprintCreate>,
): Promise<Fingerprint> {
  return changeAccess(db, async (trx, touch) => {
    await assertCanReach(trx, context.portalId, input.userId, input.deviceId);
    const taken = await findLiveFingerprintAt(trx, context.portalId, input.deviceId, input.templateId);
    if (taken) throw AppError.conflict('This template id is already enrolled at this lock');
    const id = crypto.randomUUID();
    await insertCredential(trx, {
      id,
      portal_id: context.portalId,
      user_id: input.userId,
      kind: 'fingerprint',
      variant: input.finger,
      secret: input.templateId,
      name: input.name,
      valid_from: isoOrNull(input.validFrom),
      valid_until: isoOrNull(input.validUntil),
      created_at: nowIso(),
    });
    await bindCredentialToDevice(trx, context.portalId, id, input.deviceId);
    await touch(context.portalId, { locks: [input.deviceId] });
    const fingerprint = await fingerprintById(trx, context.portalId, id);
    await recordChange(trx, context, {
      action: 'fingerprint.create',
      entityType: 'fingerprint',
      entityId: id,
      deviceId: input.deviceId,
      userId: fingerprint.holder?._id,
      after: fingerprint,
    });
    return fingerprint;
  });
}

/** Changes the finger, label or validity (the template and its lock stay: enrol again instead). */
export async function saveFingerprint(
  db: Database,
  context: ChangeContext,
  id: string,
  input: Required<FingerprintUpdate>,
): Promise<Fingerprint> {
  return changeAccess(db, async (trx, touch) => {
    const before = await fingerprintById(trx, context.portalId, id);
    await touch(context.portalId, { locks: [before.device._id] });
    await updateCredential(trx, context.portalId, id, {
      variant: input.finger,
      name: input.name,
      valid_from: isoOrNull(input.validFrom),
      valid_until: isoOrNull(input.validUntil),
    });
    const after = await fingerprintById(trx, context.portalId, id);
    await recordChange(trx, context, {
      action: 'fingerprint.update',
      entityType: 'fingerprint',
      entityId: id,
      deviceId: before.device._id,
      userId: after.holder?._id ?? before.holder?._id,
      before,
      after,
    });
    return after;
  });
}

/** Links the fingerprint to another person (who must reach its lock): corrects a mix-up at enrolment. */
export async function linkFingerprintUser(
  db: Database,
  context: ChangeContext,
  id: string,
  userId: string,
): Promise<Fingerprint> {
  return changeAccess(db, async (trx, touch) => {
    const before = await fingerprintById(trx, context.portalId, id);
    await assertCanReach(trx, context.portalId, userId, before.device._id);
    await touch(context.portalId, { locks: [before.device._id] });
    await updateCredential(trx, context.portalId, id, { user_id: userId });
    const after = await fingerprintById(trx, context.portalId, id);
    await recordChange(trx, context, {
      action: 'fingerprint.link_user',
      entityType: 'fingerprint',
      entityId: id,
      deviceId: before.device._id,
      userId,
      before: { holder: before.holder },
      after: { holder: after.holder },
    });
    return after;
  });
}

/** Deletes a fingerprint: the lock stops accepting that finger. */
export async function deleteFingerprint(db: Database, context: ChangeContext, id: string): Promise<void> {
  await changeAccess(db, async (trx, touch) => {
    const before = await fingerprintById(trx, context.portalId, id);
    await revokeCredential(trx, context.portalId, id);
    await touch(context.portalId, { locks: [before.device._id] });
    await recordChange(trx, context, {
      action: 'fingerprint.delete',
      entityType: 'fingerprint',
      entityId: id,
      deviceId: before.device._id,
      userId: before.holder?._id,
      before,
    });
  });
}

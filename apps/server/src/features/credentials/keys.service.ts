import crypto from 'node:crypto';
import type {
  ActivityPage,
  ActivityQuery,
  AuditAction,
  Key,
  KeyCreate,
  KeysQuery,
  KeyUpdate,
} from '@latchkey/shared';
import { isUniqueViolation, type Database } from '../../db/database';
import { nowIso, toCount, toIso } from '../../db/mappers';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { findDevice, findDevices } from '../devices/devices.repository';
import { findMember } from '../../base/tenancy/memberships.repository';
import {
  bindCredentialToDevice,
  insertCredential,
  listBoundDevices,
  listCredentialsPage,
  revokeCredential,
  unbindCredentialFromDevice,
  updateCredential,
  type HeldCredentialRow,
} from './credentials.repository';
import { getActivity } from '../events/events.service';
import { holderOf } from './holder';

// A key is a thing handed to a person: physical keys are tracked (who holds which key to which
// doors), digital keys are credentials the lock checks, working only at the locks they are linked to.

async function present(db: Database, portalId: string, rows: HeldCredentialRow[]): Promise<Key[]> {
  const bound = await listBoundDevices(
    db,
    portalId,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    _id: row.id,
    name: row.name,
    type: row.variant === 'digital' ? 'digital' : 'physical',
    number: row.variant === 'physical' ? row.secret : null,
    holder: holderOf(row),
    devices: bound.get(row.id) ?? [],
    validFrom: toIso(row.valid_from),
    validUntil: toIso(row.valid_until),
    createdAt: toIso(row.created_at),
  }));
}

async function page(db: Database, portalId: string, query: Parameters<typeof listCredentialsPage>[3]) {
  const { rows, total } = await listCredentialsPage(db, portalId, 'key', query);
  return { items: await present(db, portalId, rows), total: toCount(total) };
}

async function keyById(db: Database, portalId: string, id: string): Promise<Key> {
  const { items } = await page(db, portalId, { skip: 0, limit: 1, descending: false, id });
  if (!items[0]) throw AppError.notFound('Key');
  return items[0];
}

async function requireMember(db: Database, portalId: string, userId: string) {
  const member = await findMember(db, portalId, userId);
  if (!member) throw AppError.notFound('Person');
  return member;
}

const numberTaken = () => AppError.conflict('A key with this number is already in use in this portal');
const isoOrNull = (value: string | null) => value && new Date(value).toISOString();

/**
 * Runs a key change in a transaction, records it with before/after, answers the key after it. The
 * key's locks before and after the change are touched (linking, unlinking, handing over, validity).
 */
async function changeKey(
  db: Database,
  context: ChangeContext,
  id: string,
  action: AuditAction,
  change: (trx: Database, before: Key) => Promise<void>,
): Promise<Key> {
  try {
    return await changeAccess(db, async (trx, touch) => {
      const before = await keyById(trx, context.portalId, id);
      await touch(context.portalId, { boundTo: id });
      await change(trx, before);
      await touch(context.portalId, { boundTo: id });
      const after = await keyById(trx, context.portalId, id);
      await recordChange(trx, context, {
        action,
        entityType: 'key',
        entityId: id,
        userId: after.holder?._id ?? before.holder?._id,
        deviceIds: locksConcerned(before, after),
        before,
        after,
      });
      return after;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw numberTaken();
    throw error;
  }
}

export const getKey = keyById;

export function getKeysPage(db: Database, portalId: string, query: KeysQuery) {
  return page(db, portalId, {
    ...query,
    sortBy: ({ name: 'name', number: 'secret', type: 'variant', createdAt: 'created_at' } as const)[
      query.sortBy ?? 'createdAt'
    ],
    userId: query.filterBy === 'userId' ? query.filterValue : undefined,
    deviceId: query.filterBy === 'deviceId' ? query.filterValue : undefined,
    variant: query.filterBy === 'type' ? query.filterValue : undefined,
  });
}

export async function getKeysOfUser(db: Database, portalId: string, userId: string): Promise<Key[]> {
  await requireMember(db, portalId, userId);
  return (await page(db, portalId, { skip: 0, limit: 200, descending: false, userId })).items;
}

/**
 * The locks a change to a key is about, for their histories: those it was linked to or unlinked
 * from when its locks changed (the others' access did not); else every lock it opens (a new holder,
 * a new period).
 */
function locksConcerned(before: Key, after: Key): string[] {
  const was = new Set(before.devices.map((device) => device._id));
  const is = new Set(after.devices.map((device) => device._id));
  const changed = [...[...was].filter((id) => !is.has(id)), ...[...is].filter((id) => !was.has(id))];
  return changed.length > 0 ? changed : [...new Set([...was, ...is])];
}

/** Creates a key, optionally handed to a person and linked to locks. */
export async function createKey(
  db: Database,
  context: ChangeContext,
  input: Required<KeyCreate>,
): Promise<Key> {
  try {
    return await changeAccess(db, async (trx, touch) => {
      if (input.userId) await requireMember(trx, context.portalId, input.userId);
      const deviceIds = [...new Set(input.deviceIds)];
      if ((await findDevices(trx, context.portalId, deviceIds)).length !== deviceIds.length) {
        throw AppError.notFound('Lock');
      }
      const id = crypto.randomUUID();
      await insertCredential(trx, {
        id,
        portal_id: context.portalId,
        user_id: input.userId,
        kind: 'key',
        variant: input.type,
        // A digital key's secret is a random token the app presents; a physical key is its number.
        secret: input.type === 'digital' ? crypto.randomBytes(24).toString('base64url') : input.number!,
        name: input.name,
        valid_from: isoOrNull(input.validFrom),
        valid_until: isoOrNull(input.validUntil),
        created_at: nowIso(),
      });
      for (const deviceId of deviceIds) await bindCredentialToDevice(trx, context.portalId, id, deviceId);
      await touch(context.portalId, { boundTo: id });
      const key = await keyById(trx, context.portalId, id);
      await recordChange(trx, context, {
        action: 'key.create',
        entityType: 'key',
        entityId: id,
        userId: key.holder?._id,
        deviceIds: key.devices.map((device) => device._id),
        after: key,
      });
      return key;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw numberTaken();
    throw error;
  }
}

/** Changes a key's name, number (physical keys) and validity. */
export function saveKey(db: Database, context: ChangeContext, id: string, input: Required<KeyUpdate>) {
  return changeKey(db, context, id, 'key.update', async (trx, before) => {
    if (before.type === 'digital' && input.number) {
      const message = 'is only for physical keys';
      throw AppError.badRequest(`number ${message}`, [{ path: 'body.number', message }]);
    }
    if (before.type === 'physical' && !input.number) {
      const message = 'is required for a physical key';
      throw AppError.badRequest(`number ${message}`, [{ path: 'body.number', message }]);
    }
    await updateCredential(trx, context.portalId, id, {
      name: input.name,
      ...(before.type === 'physical' && { secret: input.number! }),
      valid_from: isoOrNull(input.validFrom),
      valid_until: isoOrNull(input.validUntil),
    });
  });
}

/** Hands the key to a person (from whoever held it). */
export function handOverKey(db: Database, context: ChangeContext, id: string, userId: string) {
  return changeKey(db, context, id, 'key.hand_over', async (trx) => {
    await requireMember(trx, context.portalId, userId);
    await updateCredential(trx, context.portalId, id, { user_id: userId });
  });
}

/** Records that the person gave the key back; it then has no holder. */
export function takeBackKey(db: Database, context: ChangeContext, id: string, userId: string) {
  return changeKey(db, context, id, 'key.return', async (trx, before) => {
    await requireMember(trx, context.portalId, userId);
    if (before.holder?._id !== userId) throw AppError.conflict('This person does not hold this key');
    await updateCredential(trx, context.portalId, id, { user_id: null });
  });
}

export function linkKeyToDevice(db: Database, context: ChangeContext, id: string, deviceId: string) {
  return changeKey(db, context, id, 'key.link_device', async (trx) => {
    if (!(await findDevice(trx, context.portalId, deviceId))) throw AppError.notFound('Lock');
    await bindCredentialToDevice(trx, context.portalId, id, deviceId);
  });
}

export function unlinkKeyFromDevice(db: Database, context: ChangeContext, id: string, deviceId: string) {
  return changeKey(db, context, id, 'key.unlink_device', async (trx) => {
    if (!(await findDevice(trx, context.portalId, deviceId))) throw AppError.notFound('Lock');
    await unbindCredentialFromDevice(trx, context.portalId, id, deviceId);
  });
}

export async function getKeyDevices(db: Database, portalId: string, id: string) {
  return (await keyById(db, portalId, id)).devices;
}

/** Retires a key (lost, destroyed, deactivated): it opens nothing; its history stays. */
export async function deleteKey(db: Database, context: ChangeContext, id: string): Promise<void> {
  await changeAccess(db, async (trx, touch) => {
    const before = await keyById(trx, context.portalId, id);
    await revokeCredential(trx, context.portalId, id);
    await touch(context.portalId, { boundTo: id });
    await recordChange(trx, context, {
      action: 'key.delete',
      entityType: 'key',
      entityId: id,
      userId: before.holder?._id,
      deviceIds: before.devices.map((device) => device._id),
      before,
    });
  });
}

/**
 * What happened to a key, newest first: created, handed over, returned, linked, changed, and every
 * time it was presented at a lock; paged by time like the activity feed.
 */
export async function getKeyHistory(
  db: Database,
  portalId: string,
  id: string,
  query: ActivityQuery,
): Promise<ActivityPage> {
  const exists = await db
    .selectFrom('credentials')
    .select('id')
    .where('portal_id', '=', portalId)
    .where('kind', '=', 'key')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!exists) throw AppError.notFound('Key');
  return getActivity(db, portalId, query, { keyId: id });
}

import type { LockState, SyncCenterState } from '@latchkey/shared';
import { sql, type Insertable, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database';
import { containsText } from '../../db/like';
import { nowIso } from '../../db/mappers';
import { inList } from '../../db/statement-shapes';
import type {
  DeviceCommandsTable,
  DeviceCommandRow,
  DeviceCredentialSyncRow,
  DeviceRow,
} from '../../db/schema';

// The device link starts from what a lock says about itself: its device id. A device id is a
// server-made UUID, unique across portals, so `findLockById` (and, for a batch of lock events from
// many portals, the lookups by id below that answer each row's portal for the caller to check) are
// the lookups not scoped by portal; everything after them is scoped by the portal of the lock found.

/** A live (not deleted) lock by its device id alone, for authenticating and routing its messages. */
export function findLockById(db: Database, deviceId: string): Promise<DeviceRow | undefined> {
  return db
    .selectFrom('devices')
    .selectAll()
    .where('id', '=', deviceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Live locks by device id, whole rows: the lookups of many locks' messages in one query. */
export function findLocksByIds(db: Database, deviceIds: readonly string[]): Promise<DeviceRow[]> {
  const ids = inList(deviceIds);
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('devices')
    .selectAll()
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
}

/**
 * Records what a lock said it holds and takes (its status's `capabilities`): written only when it
 * differs from what is stored, so heartbeats that repeat it cost no write.
 */
export async function saveLockCapabilities(
  db: Database,
  portalId: string,
  deviceId: string,
  capabilitiesJson: string,
): Promise<void> {
  await db
    .updateTable('devices')
    .set({ capabilities_json: capabilitiesJson, updated_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('id', '=', deviceId)
    .execute();
}

/** Records a lock's status report: it is online, seen now, with its battery, state and firmware. */
export async function saveLockStatus(
  db: Database,
  portalId: string,
  deviceId: string,
  status: { battery: number; lockState: LockState; firmware: string; credentialsVersion: number },
): Promise<void> {
  const now = nowIso();
  await db
    .updateTable('devices')
    .set({
      online: 1,
      last_seen_at: now,
      battery: status.battery,
      lock_state: status.lockState,
      firmware: status.firmware,
      credentials_version: status.credentialsVersion,
      updated_at: now,
    })
    .where('portal_id', '=', portalId)
    .where('id', '=', deviceId)
    .execute();
}

/**
 * The live (not deleted) locks among these device ids, with what their events need: a batch of
 * lock events from many locks is routed with one query (device ids are unique across portals).
 */
export function findLiveLocks(db: Database, deviceIds: Iterable<string>) {
  const ids = inList(deviceIds);
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('devices')
    .select(['id', 'portal_id', 'name'])
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
}

export async function markLockOffline(db: Database, portalId: string, deviceId: string): Promise<void> {
  await db
    .updateTable('devices')
    .set({ online: 0, updated_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('id', '=', deviceId)
    .execute();
}

/**
 * Marks offline every lock, in every portal, that was last seen before `cutoff`: the heartbeat
 * timeout is a property of the link, not of a portal. One UPDATE over the connected locks' index
 * (`devices_online_seen_idx`, partial on online = 1: the literal lets SQLite use it; a lock is only
 * ever online with a last-seen time), answering the locks it marked: each one to exactly one of
 * the servers sweeping at once.
 */
export async function markSilentLocksOffline(
  db: Database,
  cutoff: string,
): Promise<{ id: string; portal_id: string; battery: number | null }[]> {
  return db
    .updateTable('devices')
    .set({ online: 0, updated_at: nowIso() })
    .where('online', '=', sql.lit(1))
    .where('last_seen_at', '<', cutoff)
    .returning(['id', 'portal_id', 'battery'])
    .execute();
}

/**
 * Heartbeats (seen-locks.ts): the locks heard at or after `at` that are still online get it as their
 * last-seen time, in one transaction (a lock marked offline meanwhile stays so until it reports again).
 */
export async function markLocksSeen(db: Database, deviceIds: string[], at: string): Promise<void> {
  // Within every database's limit on parameters per statement.
  const chunk = 5000;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < deviceIds.length; i += chunk) {
      await trx
        .updateTable('devices')
        .set({ last_seen_at: at })
        .where('id', 'in', deviceIds.slice(i, i + chunk))
        .where('online', '=', 1)
        .execute();
    }
  });
}

// Who is behind a batch of lock events (credential-holders.ts): a few queries per batch, each by
// globally unique ids; the caller keeps only the rows of the event's own portal (and lock).

/** The holders of these credentials, with each credential's portal. */
export function findCredentialHolders(db: Database, credentialIds: Iterable<string>) {
  const ids = inList(credentialIds);
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('credentials').select(['id', 'portal_id', 'user_id']).where('id', 'in', ids).execute();
}

/** Who sent these commands, with each command's portal and lock. */
export function findCommandSenders(db: Database, commandIds: Iterable<string>) {
  const ids = inList(commandIds);
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('device_commands')
    .select(['id', 'portal_id', 'device_id', 'user_id'])
    .where('id', 'in', ids)
    .execute();
}

/**
 * These people with their memberships (any status) in these portals: one row per membership, or
 * one with a null portal for a person who is a member of none of them.
 */
export function findPeopleIn(db: Database, userIds: Iterable<string>, portalIds: Iterable<string>) {
  const ids = inList(userIds);
  const portals = inList(portalIds);
  if (ids.length === 0 || portals.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users as u')
    .leftJoin('memberships as m', (join) =>
      join.onRef('m.user_id', '=', 'u.id').on('m.portal_id', 'in', portals),
    )
    .select([
      'u.id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'm.portal_id',
      'm.first_name as member_first_name',
      'm.last_name as member_last_name',
    ])
    .where('u.id', 'in', ids)
    .execute();
}

export function findSync(
  db: Database,
  portalId: string,
  deviceId: string,
): Promise<DeviceCredentialSyncRow | undefined> {
  return db
    .selectFrom('device_credential_sync')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
}

export async function markSetSent(db: Database, portalId: string, deviceId: string, version: number) {
  await db
    .updateTable('device_credential_sync')
    .set({ sent_version: version, sent_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .execute();
}

export function listRejections(db: Database, portalId: string, deviceId: string) {
  return db
    .selectFrom('device_credential_rejections')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .orderBy('credential_id')
    .execute();
}

export function listDesiredEntries(db: Database, portalId: string, deviceId: string) {
  return db
    .selectFrom('device_credential_entries')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .orderBy('credential_id')
    .execute();
}

export async function insertCommand(db: Database, row: Insertable<DeviceCommandsTable>): Promise<void> {
  await db.insertInto('device_commands').values(row).execute();
}

export function findCommand(
  db: Database,
  portalId: string,
  deviceId: string,
  commandId: string,
): Promise<DeviceCommandRow | undefined> {
  return db
    .selectFrom('device_commands')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .where('id', '=', commandId)
    .executeTakeFirst();
}

/** Records a lock's answer to a command still pending; a late or repeated answer changes nothing. */
export async function answerCommand(
  db: Database,
  portalId: string,
  deviceId: string,
  commandId: string,
  answer: { status: 'ok' | 'failed' | 'expired'; error: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('device_commands')
    .set({ status: answer.status, error: answer.error, answered_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .where('id', '=', commandId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The sync center's columns, as SQL over `devices d` left-joined with `device_credential_sync s`. */
const pendingCount = sql<number>`(select count(*) from device_credential_entries e
  where e.portal_id = d.portal_id and e.device_id = d.id
  and e.since_version > coalesce(s.confirmed_version, 0))`;
const rejectedCount = sql<number>`(select count(*) from device_credential_rejections r
  where r.portal_id = d.portal_id and r.device_id = d.id)`;
const isPending = sql<boolean>`(s.desired_version is not null and coalesce(s.confirmed_version, 0) < s.desired_version)`;

/** Each state's condition; the order of SYNC_CENTER_STATES decides, so each excludes the earlier ones. */
const stateConditions: Record<SyncCenterState, RawBuilder<boolean>> = {
  never_connected: sql<boolean>`d.last_seen_at is null`,
  failing: sql<boolean>`d.last_seen_at is not null and ${rejectedCount} > 0`,
  pending: sql<boolean>`d.last_seen_at is not null and ${rejectedCount} = 0 and ${isPending}`,
  offline: sql<boolean>`d.last_seen_at is not null and ${rejectedCount} = 0 and not ${isPending} and d.online = 0`,
  in_sync: sql<boolean>`d.last_seen_at is not null and ${rejectedCount} = 0 and not ${isPending} and d.online = 1`,
};

const syncSortColumns = {
  name: sql`d.name`,
  lastSeenAt: sql`d.last_seen_at`,
  pending: pendingCount,
};

/** One page of the portal's locks with their credential sync, for the sync center. */
export async function listSyncCenter(
  db: Database,
  portalId: string,
  query: {
    skip: number;
    limit: number;
    search?: string;
    sortBy?: keyof typeof syncSortColumns;
    descending: boolean;
    state?: SyncCenterState;
  },
) {
  let base = db
    .selectFrom('devices as d')
    .leftJoin('device_credential_sync as s', (join) =>
      join.onRef('s.device_id', '=', 'd.id').onRef('s.portal_id', '=', 'd.portal_id'),
    )
    .where('d.portal_id', '=', portalId)
    .where('d.deleted_at', 'is', null);
  if (query.search) base = base.where(containsText('d.name', query.search));
  if (query.state) base = base.where(stateConditions[query.state]);
  const direction = query.descending ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    base
      .select([
        'd.id',
        'd.name',
        'd.online',
        'd.last_seen_at',
        's.desired_version',
        's.confirmed_version',
        pendingCount.as('pending_count'),
        rejectedCount.as('rejected_count'),
      ])
      // Never-seen locks first ascending by last seen, the same on both databases.
      .orderBy(sql`${syncSortColumns[query.sortBy ?? 'name']} is null`, query.descending ? 'asc' : 'desc')
      .orderBy(syncSortColumns[query.sortBy ?? 'name'], direction)
      .orderBy('d.id', direction)
      .limit(query.limit)
      .offset(query.skip)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

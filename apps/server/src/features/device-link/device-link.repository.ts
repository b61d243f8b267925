import type { CredentialRejection, LockState, SyncCenterState } from '@latchkey/shared';
import { sql, type Insertable, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database';
import { containsText } from '../../db/like';
import { nowIso } from '../../db/mappers';
import type {
  DeviceCommandsTable,
  DeviceCommandRow,
  DeviceCredentialSyncRow,
  DeviceRow,
} from '../../db/schema';

// The device link starts from what a lock says about itself: its device id. A device id is a
// server-made UUID, unique across portals, so `findLockById` is the one lookup not scoped by portal;
// everything after it is scoped by the portal of the lock it found.

/** A live (not deleted) lock by its device id alone, for authenticating and routing its messages. */
export function findLockById(db: Database, deviceId: string): Promise<DeviceRow | undefined> {
  return db
    .selectFrom('devices')
    .selectAll()
    .where('id', '=', deviceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
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

/** Marks a lock seen now (any message from it proves it is there). */
export async function touchLock(db: Database, portalId: string, deviceId: string): Promise<void> {
  await db
    .updateTable('devices')
    .set({ online: 1, last_seen_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('id', '=', deviceId)
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
 * timeout is a property of the link, not of a portal. Answers how many it marked.
 */
export async function markSilentLocksOffline(db: Database, cutoff: string): Promise<number> {
  const result = await db
    .updateTable('devices')
    .set({ online: 0, updated_at: nowIso() })
    .where('online', '=', 1)
    .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<', cutoff)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The person a credential presented at a lock belongs to, if it is a person's. */
export async function findCredentialHolder(
  db: Database,
  portalId: string,
  credentialId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('credentials')
    .select('user_id')
    .where('portal_id', '=', portalId)
    .where('id', '=', credentialId)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Whether a person is a member (any status) of the portal. */
export async function isMemberOf(db: Database, portalId: string, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('memberships')
    .select('user_id')
    .where('portal_id', '=', portalId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
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

/**
 * Stores a new desired set for a lock if the stored one is still `previousVersion` (null: none
 * yet). Answers false when another server stored a set first; that one wins.
 */
export async function storeDesiredSet(
  db: Database,
  portalId: string,
  deviceId: string,
  previousVersion: number | null,
  desired: { version: number; hash: string; set: string },
): Promise<boolean> {
  const now = nowIso();
  if (previousVersion === null) {
    const inserted = await db
      .insertInto('device_credential_sync')
      .values({
        device_id: deviceId,
        portal_id: portalId,
        desired_version: desired.version,
        desired_hash: desired.hash,
        desired_set: desired.set,
        desired_at: now,
      })
      .onConflict((oc) => oc.column('device_id').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }
  const updated = await db
    .updateTable('device_credential_sync')
    .set({
      desired_version: desired.version,
      desired_hash: desired.hash,
      desired_set: desired.set,
      desired_at: now,
    })
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .where('desired_version', '=', previousVersion)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

export async function markSetSent(db: Database, portalId: string, deviceId: string, version: number) {
  await db
    .updateTable('device_credential_sync')
    .set({ sent_version: version, sent_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .execute();
}

/** Records a credentials/ack: the confirmed version and exactly the entries refused in it. */
export async function saveCredentialsAck(
  db: Database,
  portalId: string,
  deviceId: string,
  version: number,
  rejected: { credentialId: string; reason: CredentialRejection }[],
): Promise<void> {
  const now = nowIso();
  await db
    .updateTable('device_credential_sync')
    .set({ confirmed_version: version, confirmed_at: now })
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .execute();
  await db
    .deleteFrom('device_credential_rejections')
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .execute();
  const unique = new Map(rejected.map((r) => [r.credentialId, r]));
  if (unique.size === 0) return;
  await db
    .insertInto('device_credential_rejections')
    .values(
      [...unique.values()].map((r) => ({
        portal_id: portalId,
        device_id: deviceId,
        credential_id: r.credentialId,
        version,
        reason: r.reason,
        rejected_at: now,
      })),
    )
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

/**
 * Brings a lock's entry list in line with a new desired set: an entry whose content changed (or is
 * new) starts at `version`, an unchanged one keeps its version, a removed one goes.
 */
export async function replaceDesiredEntries(
  db: Database,
  portalId: string,
  deviceId: string,
  version: number,
  entries: { credentialId: string; hash: string }[],
): Promise<void> {
  const existing = new Map(
    (await listDesiredEntries(db, portalId, deviceId)).map((row) => [row.credential_id, row]),
  );
  const wanted = new Set(entries.map((e) => e.credentialId));
  const gone = [...existing.keys()].filter((id) => !wanted.has(id));
  if (gone.length > 0) {
    await db
      .deleteFrom('device_credential_entries')
      .where('portal_id', '=', portalId)
      .where('device_id', '=', deviceId)
      .where('credential_id', 'in', gone)
      .execute();
  }
  for (const entry of entries) {
    const before = existing.get(entry.credentialId);
    if (before?.entry_hash === entry.hash) continue;
    await db
      .insertInto('device_credential_entries')
      .values({
        portal_id: portalId,
        device_id: deviceId,
        credential_id: entry.credentialId,
        entry_hash: entry.hash,
        since_version: version,
      })
      .onConflict((oc) =>
        oc
          .columns(['portal_id', 'device_id', 'credential_id'])
          .doUpdateSet({ entry_hash: entry.hash, since_version: version }),
      )
      .execute();
  }
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

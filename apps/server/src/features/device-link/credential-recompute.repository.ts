import { sql } from 'kysely';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { DeviceCredentialSyncRow } from '../../db/schema';
import { inRowSlices, integer, runPrepared, valuesList, writesRowByRow } from '../../db/values-list';
import { inSlices } from '../access/credential-sets.repository';

// Set-based reads and writes of many locks' sync state (credential-recompute.ts): one statement per
// slice of locks rather than several per lock (db/values-list.ts).

/** The locks waiting in the recompute outbox (oldest first); `touchedBefore` keeps only older rows. */
export function readRecomputeOutbox(db: Database, options: { limit: number; touchedBefore?: string }) {
  let query = db
    .selectFrom('device_credential_recompute')
    .select(['device_id', 'portal_id', 'token'])
    .orderBy('touched_at')
    .limit(options.limit);
  if (options.touchedBefore) query = query.where('touched_at', '<', options.touchedBefore);
  return query.execute();
}

/**
 * Live locks' desired versions (null: no set yet) and whether each waits in the recompute outbox,
 * in one read.
 */
export function findSyncStates(db: Database, deviceIds: readonly string[]) {
  return inSlices(deviceIds, (slice) =>
    db
      .selectFrom('devices as d')
      .leftJoin('device_credential_sync as s', 's.device_id', 'd.id')
      .leftJoin('device_credential_recompute as r', 'r.device_id', 'd.id')
      .select(['d.id', 's.desired_version', 'r.token'])
      .where('d.id', 'in', slice)
      .where('d.deleted_at', 'is', null)
      .execute(),
  );
}
export type SyncState = Awaited<ReturnType<typeof findSyncStates>>[number];

/**
 * Takes locks out of the outbox, each only if its token is still the one read: a change that
 * touched the lock again meanwhile left a newer token, and its row stays for the next pass.
 */
export async function deleteRecomputeRows(
  db: Database,
  rows: readonly { device_id: string; token: string }[],
) {
  const byToken = new Map<string, string[]>();
  for (const row of rows) {
    const ids = byToken.get(row.token);
    if (ids) ids.push(row.device_id);
    else byToken.set(row.token, [row.device_id]);
  }
  for (const [token, deviceIds] of byToken) {
    await inSlices(deviceIds, async (slice) => {
      await db
        .deleteFrom('device_credential_recompute')
        .where('token', '=', token)
        .where('device_id', 'in', slice)
        .execute();
      return [];
    });
  }
}

/** The sync rows of some locks of a portal. */
export function findSyncsOf(
  db: Database,
  portalId: string,
  deviceIds: readonly string[],
): Promise<DeviceCredentialSyncRow[]> {
  return inSlices(deviceIds, (slice) =>
    db
      .selectFrom('device_credential_sync')
      .selectAll()
      .where('portal_id', '=', portalId)
      .where('device_id', 'in', slice)
      .execute(),
  );
}

/**
 * A new desired set for one lock, to store if its stored version is still `previousVersion`: its
 * version and the hash of its body (credential-set-bodies.ts, stored in the same transaction).
 */
export interface DesiredSet {
  deviceId: string;
  /** The version stored now; null when the lock has none yet. */
  previousVersion: number | null;
  version: number;
  hash: string;
}

/**
 * Stores new desired sets for many locks; each is stored only if the lock's stored version is
 * still the one it was computed against (another server may have stored a set first: that one
 * wins). Answers the ids of the locks whose set was stored.
 */
export async function storeDesiredSets(
  db: Database,
  portalId: string,
  sets: readonly DesiredSet[],
): Promise<Set<string>> {
  const stored = new Set<string>();
  const now = nowIso();
  const fresh = sets.filter((s) => s.previousVersion === null);
  const replacing = sets.filter((s) => s.previousVersion !== null);
  await inRowSlices(fresh, async (slice) => {
    const rows = await db
      .insertInto('device_credential_sync')
      .values(
        slice.map((s) => ({
          device_id: s.deviceId,
          portal_id: portalId,
          desired_version: s.version,
          desired_hash: s.hash,
          desired_at: now,
        })),
      )
      .onConflict((oc) => oc.column('device_id').doNothing())
      .returning('device_id')
      .execute();
    for (const row of rows) stored.add(row.device_id);
  });
  if (writesRowByRow(db)) {
    for (const s of replacing) {
      const changed = await runPrepared(
        db,
        `update device_credential_sync set desired_version = ?, desired_hash = ?, desired_at = ?
         where portal_id = ? and device_id = ? and desired_version = ?`,
        [s.version, s.hash, now, portalId, s.deviceId, s.previousVersion],
      );
      if (changed > 0) stored.add(s.deviceId);
    }
    return stored;
  }
  await inRowSlices(replacing, async (slice) => {
    const values = valuesList(
      slice.map(
        (s) => sql`(${s.deviceId}, ${integer(s.previousVersion!)}, ${integer(s.version)}, ${s.hash})`,
      ),
    );
    const { rows } = await sql<{ device_id: string }>`
      update device_credential_sync as s
      set desired_version = v.column3, desired_hash = v.column4, desired_at = ${now}
      from (values ${values}) as v
      where s.portal_id = ${portalId} and s.device_id = v.column1 and s.desired_version = v.column2
      returning device_id`.execute(db);
    for (const row of rows) stored.add(row.device_id);
  });
  return stored;
}

/** Records that these locks were handed these versions (never moving a lock's sent version back). */
export async function markSetsSent(
  db: Database,
  portalId: string,
  sent: readonly { deviceId: string; version: number }[],
): Promise<void> {
  const now = nowIso();
  if (writesRowByRow(db)) {
    for (const s of sent) {
      await runPrepared(
        db,
        `update device_credential_sync set sent_version = ?, sent_at = ?
         where portal_id = ? and device_id = ? and (sent_version is null or sent_version < ?)`,
        [s.version, now, portalId, s.deviceId, s.version],
      );
    }
    return;
  }
  await inRowSlices(sent, async (slice) => {
    const values = valuesList(slice.map((s) => sql`(${s.deviceId}, ${integer(s.version)})`));
    await sql`
      update device_credential_sync as s
      set sent_version = v.column2, sent_at = ${now}
      from (values ${values}) as v
      where s.portal_id = ${portalId} and s.device_id = v.column1
        and (s.sent_version is null or s.sent_version < v.column2)`.execute(db);
  });
}

/** The entries of several locks' desired sets. */
export function listDesiredEntriesOf(db: Database, portalId: string, deviceIds: readonly string[]) {
  return inSlices(deviceIds, (slice) =>
    db
      .selectFrom('device_credential_entries')
      .select(['device_id', 'credential_id', 'entry_hash'])
      .where('portal_id', '=', portalId)
      .where('device_id', 'in', slice)
      .execute(),
  );
}

/**
 * Brings several locks' entry lists in line with their new desired sets: an entry whose content
 * changed (or is new) starts at its lock's new version, an unchanged one keeps its version, a
 * removed one goes. Three statements per slice however many locks.
 */
export async function replaceDesiredEntriesOf(
  db: Database,
  portalId: string,
  sets: readonly { deviceId: string; version: number; entries: { credentialId: string; hash: string }[] }[],
): Promise<void> {
  const existing = await listDesiredEntriesOf(
    db,
    portalId,
    sets.map((s) => s.deviceId),
  );
  const before = new Map(existing.map((row) => [`${row.device_id} ${row.credential_id}`, row.entry_hash]));
  const wanted = new Set<string>();
  const upserts: { device_id: string; credential_id: string; entry_hash: string; since_version: number }[] =
    [];
  for (const set of sets) {
    for (const entry of set.entries) {
      const key = `${set.deviceId} ${entry.credentialId}`;
      wanted.add(key);
      if (before.get(key) === entry.hash) continue;
      upserts.push({
        device_id: set.deviceId,
        credential_id: entry.credentialId,
        entry_hash: entry.hash,
        since_version: set.version,
      });
    }
  }
  const gone = existing.filter((row) => !wanted.has(`${row.device_id} ${row.credential_id}`));
  await inRowSlices(gone, async (slice) => {
    const pairs = valuesList(slice.map((row) => sql`(${row.device_id}, ${row.credential_id})`));
    await sql`
      delete from device_credential_entries
      where portal_id = ${portalId} and (device_id, credential_id) in (values ${pairs})`.execute(db);
  });
  await inRowSlices(upserts, async (slice) => {
    await db
      .insertInto('device_credential_entries')
      .values(slice.map((row) => ({ portal_id: portalId, ...row })))
      .onConflict((oc) =>
        oc.columns(['portal_id', 'device_id', 'credential_id']).doUpdateSet((eb) => ({
          entry_hash: eb.ref('excluded.entry_hash'),
          since_version: eb.ref('excluded.since_version'),
        })),
      )
      .execute();
  });
}

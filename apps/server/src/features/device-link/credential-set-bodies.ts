import type { CredentialSet } from '@latchkey/shared';
import { sql } from 'kysely';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import { inRowSlices } from '../../db/values-list';
import { inSlices } from '../access/credential-sets.repository';

// A credential set's content (its time zone, entries, lockouts and QR key: everything but the
// lock's id and the version) is stored once per portal and content hash, however many locks hold
// it: a change reaching 10,000 locks of a portal usually gives them all the same content, and
// writing each lock's whole set into its sync row cost PostgreSQL most of that change (issue 19,
// item 10; docs/benchmarks.md "Grant changes"). A lock's sync row names its body by `desired_hash`.

/** The content of a set, as stored and as the tail of the message a lock receives. */
export function setBody(set: CredentialSet): string {
  return JSON.stringify({
    timeZone: set.timeZone,
    entries: set.entries,
    lockouts: set.lockouts,
    qrKey: set.qrKey,
  });
}

/** The `credentials` message for a lock: its id and version, then the body's fields. */
export function setMessage(deviceId: string, version: number, body: string): string {
  return `{"deviceId":${JSON.stringify(deviceId)},"version":${version},${body.slice(1)}`;
}

/**
 * Stores bodies a change is about to name (each once), marking ones already stored as used now so
 * the sweep below cannot take them while the change commits.
 */
export async function storeSetBodies(
  db: Database,
  portalId: string,
  bodies: ReadonlyMap<string, string>,
): Promise<void> {
  const now = nowIso();
  await inRowSlices([...bodies], async (slice) => {
    await db
      .insertInto('credential_set_bodies')
      .values(slice.map(([hash, body]) => ({ portal_id: portalId, body_hash: hash, body, used_at: now })))
      .onConflict((oc) => oc.columns(['portal_id', 'body_hash']).doUpdateSet({ used_at: now }))
      .execute();
  });
}

/** The bodies with these hashes, by hash. */
export async function findSetBodies(
  db: Database,
  portalId: string,
  hashes: readonly string[],
): Promise<Map<string, string>> {
  const rows = await inSlices([...new Set(hashes)], (slice) =>
    db
      .selectFrom('credential_set_bodies')
      .select(['body_hash', 'body'])
      .where('portal_id', '=', portalId)
      .where('body_hash', 'in', slice)
      .execute(),
  );
  return new Map(rows.map((row) => [row.body_hash, row.body]));
}

/** A lock's desired set as the lock receives it, or null when it has none yet. */
export async function findDesiredSet(
  db: Database,
  portalId: string,
  deviceId: string,
): Promise<{ version: number; json: string; set: CredentialSet } | null> {
  const row = await db
    .selectFrom('device_credential_sync as s')
    .innerJoin('credential_set_bodies as b', (join) =>
      join.onRef('b.portal_id', '=', 's.portal_id').onRef('b.body_hash', '=', 's.desired_hash'),
    )
    .select(['s.desired_version', 'b.body'])
    .where('s.portal_id', '=', portalId)
    .where('s.device_id', '=', deviceId)
    .executeTakeFirst();
  if (!row) return null;
  const json = setMessage(deviceId, row.desired_version, row.body);
  return { version: row.desired_version, json, set: JSON.parse(json) as CredentialSet };
}

/** Bodies no lock names that were last used before `before` (the device link's hourly sweep). */
export async function sweepUnusedSetBodies(db: Database, before: string): Promise<number> {
  const result = await sql`
    delete from credential_set_bodies
    where used_at < ${before}
      and not exists (
        select 1 from device_credential_sync s
        where s.portal_id = credential_set_bodies.portal_id and s.desired_hash = credential_set_bodies.body_hash
      )`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

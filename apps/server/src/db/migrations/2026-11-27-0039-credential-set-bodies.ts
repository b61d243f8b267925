import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 19, item 10: a change reaching 10,000 locks wrote each lock's whole set into its sync row,
// although most locks of a portal hold sets that differ only in the lock's id. A set's content
// (everything but the lock's id and the version) is now kept once per portal and content hash in
// credential_set_bodies; a lock's sync row names it by `desired_hash` (now the body's sha256), and
// the message a lock receives is the body with its id and version put in front
// (features/device-link/credential-set-bodies.ts).
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('credential_set_bodies')
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('body_hash', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    // Raised whenever a lock is given this body again, so the sweep of bodies no lock names never
    // takes one a change is about to name (it keeps anything used in the last hour).
    .addColumn('used_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('credential_set_bodies_pk', ['portal_id', 'body_hash'])
    .execute();

  // The stored sets move into bodies; their hash becomes the body's, computed as the server does.
  const rows = await db
    .selectFrom('device_credential_sync')
    .select(['device_id', 'portal_id', 'desired_set'])
    .execute();
  const now = new Date().toISOString();
  const seen = new Set<string>();
  for (const row of rows as { device_id: string; portal_id: string; desired_set: string }[]) {
    const set = JSON.parse(row.desired_set) as Record<string, unknown>;
    const body = JSON.stringify({
      timeZone: set.timeZone,
      entries: set.entries,
      lockouts: set.lockouts,
      qrKey: set.qrKey,
    });
    const hash = crypto.createHash('sha256').update(body).digest('hex');
    const key = `${row.portal_id} ${hash}`;
    if (!seen.has(key)) {
      seen.add(key);
      await db
        .insertInto('credential_set_bodies')
        .values({ portal_id: row.portal_id, body_hash: hash, body, used_at: now })
        .execute();
    }
    await db
      .updateTable('device_credential_sync')
      .set({ desired_hash: hash })
      .where('device_id', '=', row.device_id)
      .execute();
  }
  await db.schema.alterTable('device_credential_sync').dropColumn('desired_set').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('device_credential_sync').addColumn('desired_set', 'text').execute();
  const rows = await db
    .selectFrom('device_credential_sync as s')
    .innerJoin('credential_set_bodies as b', (join) =>
      join.onRef('b.portal_id', '=', 's.portal_id').onRef('b.body_hash', '=', 's.desired_hash'),
    )
    .select(['s.device_id', 's.desired_version', 'b.body'])
    .execute();
  for (const row of rows as { device_id: string; desired_version: number; body: string }[]) {
    const set = { deviceId: row.device_id, version: row.desired_version, ...JSON.parse(row.body) };
    await db
      .updateTable('device_credential_sync')
      .set({ desired_set: JSON.stringify(set) })
      .where('device_id', '=', row.device_id)
      .execute();
  }
  await db.schema.dropTable('credential_set_bodies').execute();
}

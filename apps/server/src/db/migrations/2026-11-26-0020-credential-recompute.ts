import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);

  // The outbox of locks whose credential set must be recomputed: a change to access writes here, in
  // its own transaction, the locks it touched (features/access/touched-locks.ts); the device link
  // recomputes them and deletes the row if its token is still the one it read (a newer change
  // replaced the token, so its row stays for the next pass). A row is also the lock's dirty
  // marker: a status report rebuilds nothing unless its lock is here.
  await db.schema
    .createTable('device_credential_recompute')
    .addColumn('device_id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('touched_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('device_credential_recompute_touched_idx')
    .on('device_credential_recompute')
    .columns(['touched_at'])
    .execute();

  // Company codes are read for every recomputation; without this they were a scan of the portal's
  // credentials.
  await db.schema
    .createIndex('credentials_portal_holder_idx')
    .on('credentials')
    .columns(['portal_id', 'holder_type'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('credentials_portal_holder_idx').execute();
  await db.schema.dropTable('device_credential_recompute').execute();
}

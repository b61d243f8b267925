import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 21, item 5 (docs/decisions.md "Enrollment readers"): desk readers a portal pairs (their
// secret stored hashed, like a lock's), and the enrollments an admin starts on one: a request sent
// to the reader, its expiry and the card UID or template id it answered.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('readers')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('firmware', 'text')
    .addColumn('last_seen_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('readers_portal_idx').on('readers').columns(['portal_id', 'name']).execute();
  await db.schema
    .createTable('reader_enrollments')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('reader_id', 'text', (c) => c.notNull().references('readers.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('value', 'text')
    .addColumn('error', 'text')
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('completed_at', ts)
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('reader_enrollments_portal_idx')
    .on('reader_enrollments')
    .columns(['portal_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('reader_enrollments_reader_idx')
    .on('reader_enrollments')
    .columns(['reader_id', 'state'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reader_enrollments').execute();
  await db.schema.dropTable('readers').execute();
}

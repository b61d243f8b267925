import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('lockouts')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('starts_at', ts, (c) => c.notNull())
    .addColumn('ends_at', ts)
    .addColumn('exempt_admins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('lockouts_portal_starts_idx')
    .on('lockouts')
    .columns(['portal_id', 'starts_at'])
    .execute();

  await db.schema
    .createTable('lockout_devices')
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('lockout_id', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('lockout_devices_pk', ['portal_id', 'lockout_id', 'device_id'])
    .execute();
  await db.schema
    .createIndex('lockout_devices_device_idx')
    .on('lockout_devices')
    .columns(['portal_id', 'device_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('lockout_devices').execute();
  await db.schema.dropTable('lockouts').execute();
}

import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// A change can concern several locks (a lockout covers many): audit_log.device_id holds one, so a
// lock's History tab and the activity feed's lock filter missed the lockouts that covered it. Each
// lock such a change concerns gets a row here, found by (portal, lock) like audit_log.device_id.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_log_devices')
    .addColumn('audit_id', 'text', (c) => c.notNull().references('audit_log.id').onDelete('cascade'))
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('audit_log_devices_pk', ['audit_id', 'device_id'])
    .execute();
  await db.schema
    .createIndex('audit_log_devices_portal_device_idx')
    .on('audit_log_devices')
    .columns(['portal_id', 'device_id', 'audit_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('audit_log_devices').execute();
}

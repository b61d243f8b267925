import { sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// A lock's history (its History tab, the activity feed's lock and zone filters) was read as
// "audit_log.device_id is the lock OR audit_log_devices names it". With that OR, SQLite read the
// portal's whole log newest first and tested each entry, instead of the (portal, lock, time) index
// the single-lock filter used: a rarely changed lock in a large portal read far more rows than it
// showed. Now every entry about a lock has a row in audit_log_devices with its time (the one lock
// of audit_log.device_id too, backfilled here), and a lock's history is read from that table's own
// (portal, lock, time) index in the page's order, with no OR and no sort.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('audit_log_devices')
    .addColumn('created_at', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`UPDATE audit_log_devices SET created_at =
      (SELECT a.created_at FROM audit_log a WHERE a.id = audit_log_devices.audit_id)`.execute(db);
  await sql`INSERT INTO audit_log_devices (audit_id, portal_id, device_id, created_at)
      SELECT a.id, a.portal_id, a.device_id, a.created_at FROM audit_log a
      WHERE a.device_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM audit_log_devices d WHERE d.audit_id = a.id AND d.device_id = a.device_id)`.execute(db);
  await db.schema
    .createIndex('audit_log_devices_lock_history_idx')
    .on('audit_log_devices')
    .columns(['portal_id', 'device_id', 'created_at', 'audit_id'])
    .execute();
  // Both are prefixes of the new index's work: nothing reads by them any more.
  await db.schema.dropIndex('audit_log_devices_portal_device_idx').execute();
  await db.schema.dropIndex('audit_log_portal_device_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('audit_log_portal_device_idx')
    .on('audit_log')
    .columns(['portal_id', 'device_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('audit_log_devices_portal_device_idx')
    .on('audit_log_devices')
    .columns(['portal_id', 'device_id', 'audit_id'])
    .execute();
  await db.schema.dropIndex('audit_log_devices_lock_history_idx').execute();
  // The single lock of an entry lives in audit_log.device_id again.
  await sql`DELETE FROM audit_log_devices WHERE EXISTS (
      SELECT 1 FROM audit_log a WHERE a.id = audit_log_devices.audit_id AND a.device_id = audit_log_devices.device_id)`.execute(
    db,
  );
  await db.schema.alterTable('audit_log_devices').dropColumn('created_at').execute();
}

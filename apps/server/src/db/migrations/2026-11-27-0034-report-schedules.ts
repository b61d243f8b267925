import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 20, item 5 (docs/decisions.md "Reports"): reports an admin has mailed weekly or monthly to
// the portal's admins, each period once (last_period is the once-only guard: a run moves it with an
// atomic UPDATE before it sends); and files attached to a queued mail (the report's CSV and PDF).
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('report_schedules')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('frequency', 'text', (c) => c.notNull())
    .addColumn('filters_json', 'text', (c) => c.notNull())
    .addColumn('recipients_json', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('last_period', 'text')
    .addColumn('last_sent_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('report_schedules_portal_idx')
    .on('report_schedules')
    .columns(['portal_id', 'created_at'])
    .execute();
  // JSON [{ filename, contentType, base64 }]; null for a mail without files.
  await db.schema.alterTable('mail_outbox').addColumn('attachments_json', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('attachments_json').execute();
  await db.schema.dropTable('report_schedules').execute();
}

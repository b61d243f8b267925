import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// Plan history: which plan a portal was on when. Bills price each day with the plan in force on it
// (features/billing/plan-history.ts). Before a portal's first period it is on the free plan.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('portal_plan_periods')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('plan', 'text', (c) => c.notNull())
    .addColumn('starts_at', ts, (c) => c.notNull())
    /** Null: still in force. */
    .addColumn('ends_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('portal_plan_periods_portal_starts_idx')
    .on('portal_plan_periods')
    .columns(['portal_id', 'starts_at'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('portal_plan_periods').execute();
}

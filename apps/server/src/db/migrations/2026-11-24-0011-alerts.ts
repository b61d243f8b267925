import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('alert_rules')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('email', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON array of lock ids; [] watches every lock. */
    .addColumn('device_ids_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('minutes', 'integer')
    .addColumn('count', 'integer')
    .addColumn('user_id', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alert_rules_portal_idx').on('alert_rules').columns(['portal_id']).execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('rule_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    /** What the alert is about, once: a second server (or a second sweep) finds it taken. */
    .addColumn('once_key', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notifications_once_idx')
    .on('notifications')
    .columns(['portal_id', 'once_key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('notifications_portal_created_idx')
    .on('notifications')
    .columns(['portal_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('notification_reads')
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('read_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_reads_pk', ['portal_id', 'user_id'])
    .execute();

  // Every portal that exists gets the rules a new portal starts with.
  const portals = (await db.selectFrom('portals').select('id').execute()) as { id: string }[];
  const now = new Date().toISOString();
  for (const portal of portals) {
    for (const rule of DEFAULT_ALERT_RULES) {
      await db
        .insertInto('alert_rules')
        .values({ id: crypto.randomUUID(), portal_id: portal.id, ...rule, created_at: now, updated_at: now })
        .execute();
    }
  }
}

/** A copy frozen with this migration (the app's own list may change later). */
const DEFAULT_ALERT_RULES = [
  {
    kind: 'low_battery',
    name: 'Low battery',
    enabled: 1,
    email: 1,
    device_ids_json: '[]',
    minutes: null,
    count: null,
    user_id: null,
  },
  {
    kind: 'tamper',
    name: 'Tamper alarm',
    enabled: 1,
    email: 1,
    device_ids_json: '[]',
    minutes: null,
    count: null,
    user_id: null,
  },
  {
    kind: 'offline',
    name: 'Offline for 30 minutes',
    enabled: 1,
    email: 1,
    device_ids_json: '[]',
    minutes: 30,
    count: null,
    user_id: null,
  },
];

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_reads').execute();
  await db.schema.dropTable('notifications').execute();
  await db.schema.dropTable('alert_rules').execute();
}

import { sql, type Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// Every table here is portal-owned: it carries portal_id, and its keys and indexes start with it.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  const portalRef = 'portals.id';

  await db.schema
    .createTable('devices')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('serial', 'text')
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('low_battery_level', 'integer', (c) => c.notNull().defaultTo(20))
    .addColumn('battery', 'integer')
    .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_seen_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('deleted_at', ts)
    .execute();
  await db.schema
    .createIndex('devices_portal_name_idx')
    .on('devices')
    .columns(['portal_id', 'name'])
    .execute();

  await db.schema
    .createTable('groups')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('groups_portal_name_idx').on('groups').columns(['portal_id', 'name']).execute();

  // Links: who is in which group, which locks a group opens, who may use a lock directly.
  for (const [table, left, right] of [
    ['group_users', 'group_id', 'user_id'],
    ['group_devices', 'group_id', 'device_id'],
    ['device_users', 'device_id', 'user_id'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
      .addColumn(left, 'text', (c) => c.notNull())
      .addColumn(right, 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['portal_id', left, right])
      .execute();
    await db.schema
      .createIndex(`${table}_reverse_idx`)
      .on(table)
      .columns(['portal_id', right, left])
      .execute();
  }

  // A person's weekly schedule at one lock, however they reach it; no row: at any time.
  await db.schema
    .createTable('user_device_schedules')
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('schedule_json', 'text', (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('user_device_schedules_pk', ['portal_id', 'device_id', 'user_id'])
    .execute();

  // Things presented at a lock: access codes now; cards, fingerprints and keys share the table.
  await db.schema
    .createTable('credentials')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('user_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('valid_from', ts)
    .addColumn('valid_until', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('revoked_at', ts)
    .execute();
  await db.schema
    .createIndex('credentials_portal_user_idx')
    .on('credentials')
    .columns(['portal_id', 'user_id', 'kind'])
    .execute();
  // One live credential per secret and kind in a portal: a code always names one person.
  await db.schema
    .createIndex('credentials_live_secret_uq')
    .on('credentials')
    .columns(['portal_id', 'kind', 'secret'])
    .unique()
    .where(sql.ref('revoked_at'), 'is', null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'credentials',
    'user_device_schedules',
    'device_users',
    'group_devices',
    'group_users',
    'groups',
    'devices',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

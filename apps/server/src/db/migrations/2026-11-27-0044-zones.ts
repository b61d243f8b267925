import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 21, item 4 (docs/decisions.md "Zones"): a portal's places (a site, a building, a floor),
// nested at most three deep, each with a default IANA time zone. A lock is in at most one zone
// (devices.zone_id); a lockout may be bound to a zone (lockouts.zone_id): its locks are the zone's
// and its sub-zones', recomputed when locks move.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('zones')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('zones.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('zones_portal_parent_idx')
    .on('zones')
    .columns(['portal_id', 'parent_id'])
    .execute();
  await db.schema.alterTable('devices').addColumn('zone_id', 'text').execute();
  // The zone filters of the lock list, the activity, reports and the dashboard start here.
  await db.schema
    .createIndex('devices_portal_zone_idx')
    .on('devices')
    .columns(['portal_id', 'zone_id'])
    .execute();
  await db.schema.alterTable('lockouts').addColumn('zone_id', 'text').execute();
  await db.schema
    .createIndex('lockouts_portal_zone_idx')
    .on('lockouts')
    .columns(['portal_id', 'zone_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('lockouts_portal_zone_idx').execute();
  await db.schema.alterTable('lockouts').dropColumn('zone_id').execute();
  await db.schema.dropIndex('devices_portal_zone_idx').execute();
  await db.schema.alterTable('devices').dropColumn('zone_id').execute();
  await db.schema.dropTable('zones').execute();
}

import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// The rental flow (issue 12): listings, their categories, locks, access lists, people and images,
// the locks' arrival instructions, and stays (docs/decisions.md "Rentals").
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  const portalRef = 'portals.id';

  await db.schema
    .createTable('listing_categories')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('listing_categories_portal_name_uq')
    .on('listing_categories')
    .columns(['portal_id', 'name'])
    .unique()
    .execute();

  await db.schema
    .createTable('listings')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category_id', 'text')
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('house_rules', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('check_in_time', 'text', (c) => c.notNull())
    .addColumn('check_out_time', 'text', (c) => c.notNull())
    .addColumn('initial_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('start_time', 'text')
    .addColumn('min_nights', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('max_nights', 'integer', (c) => c.notNull().defaultTo(30))
    .addColumn('auto_accept', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    /** Raised to rotate the listing's share link (the token is derived, never stored). */
    .addColumn('share_token_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('share_token_rotated_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('deleted_at', ts)
    .execute();
  await db.schema
    .createIndex('listings_portal_created_idx')
    .on('listings')
    .columns(['portal_id', 'created_at'])
    .execute();

  // The locks a listing opens, in order (the first names the listing's time zone).
  await db.schema
    .createTable('listing_locks')
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('listing_id', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('listing_locks_pk', ['portal_id', 'listing_id', 'device_id'])
    .execute();
  await db.schema
    .createIndex('listing_locks_device_idx')
    .on('listing_locks')
    .columns(['portal_id', 'device_id'])
    .execute();

  await db.schema
    .createTable('listing_access_lists')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('listing_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('anchor', 'text', (c) => c.notNull())
    .addColumn('start_offset', 'integer', (c) => c.notNull())
    .addColumn('end_offset', 'integer', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('listing_access_lists_listing_idx')
    .on('listing_access_lists')
    .columns(['portal_id', 'listing_id'])
    .execute();

  await db.schema
    .createTable('listing_users')
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('listing_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('listing_users_pk', ['portal_id', 'listing_id', 'user_id'])
    .execute();

  // Images (the brief's userImages): a listing's photos and a lock's arrival pictures. The bytes
  // live in the image store (the data folder by default), under `storage_key`.
  await db.schema
    .createTable('user_images')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('owner_type', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('alt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_images_owner_idx')
    .on('user_images')
    .columns(['portal_id', 'owner_type', 'owner_id', 'position'])
    .execute();

  // A lock's arrival instructions (the brief's device landing info).
  await db.schema
    .createTable('device_landings')
    .addColumn('device_id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('wifi_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('wifi_password', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('parking', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('device_landings_portal_idx')
    .on('device_landings')
    .columns(['portal_id', 'device_id'])
    .execute();

  // A stay: the central record of the rental flow (requests, bookings, imported reservations).
  await db.schema
    .createTable('stays')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('listing_id', 'text', (c) => c.notNull())
    .addColumn('guest_name', 'text', (c) => c.notNull())
    .addColumn('guest_email', 'text', (c) => c.notNull())
    .addColumn('guest_phone', 'text')
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    /** This stay's times when they differ from the listing's (a late check-out). */
    .addColumn('check_in_time', 'text')
    .addColumn('check_out_time', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    /** An imported reservation's UID in its feed (iCal). */
    .addColumn('external_ref', 'text')
    .addColumn('reason', 'text')
    .addColumn('guest_user_id', 'text')
    /** Raised to invalidate the guest's link (the token is derived, never stored). */
    .addColumn('guest_token_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('access_state', 'text', (c) => c.notNull().defaultTo('none'))
    /** Raised on every change of the guest's access; mails and alerts are once per generation. */
    .addColumn('access_generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('access_changed_at', ts)
    .addColumn('mailed_generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('guest_mailed_at', ts)
    .addColumn('alerted_generation', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('decided_at', ts)
    .addColumn('decided_by', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('stays_listing_dates_idx')
    .on('stays')
    .columns(['portal_id', 'listing_id', 'start_date'])
    .execute();
  await db.schema.createIndex('stays_portal_state_idx').on('stays').columns(['portal_id', 'state']).execute();
  // The access sweep looks across portals for stays waiting for their locks.
  await db.schema
    .createIndex('stays_access_state_idx')
    .on('stays')
    .columns(['access_state', 'access_changed_at'])
    .execute();

  // A stay's access: the guest's, and each access-list holder's around it. Each is one code
  // credential (and for the guest one QR credential) bound to every lock of the listing; per lock
  // the device link keeps its sync state (device_credential_entries).
  await db.schema
    .createTable('stay_access')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('stay_id', 'text', (c) => c.notNull())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('access_list_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text', (c) => c.notNull())
    .addColumn('qr_credential_id', 'text')
    .addColumn('valid_from', ts, (c) => c.notNull())
    .addColumn('valid_until', ts, (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('removed_at', ts)
    .execute();
  await db.schema
    .createIndex('stay_access_stay_idx')
    .on('stay_access')
    .columns(['portal_id', 'stay_id'])
    .execute();
  // The sweep frees finished stays' slots on their locks.
  await db.schema
    .createIndex('stay_access_until_idx')
    .on('stay_access')
    .columns(['removed_at', 'valid_until'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'stay_access',
    'stays',
    'device_landings',
    'user_images',
    'listing_users',
    'listing_access_lists',
    'listing_locks',
    'listings',
    'listing_categories',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

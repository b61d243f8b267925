import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// Rentals, part R2 (issue 12): blocked nights, imported iCal feeds and their reservations, the
// export feed's rotatable link, and reviews (docs/decisions.md "Rentals: calendars, iCal, reviews").
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  const portalRef = 'portals.id';

  // The export feed's link is derived (like the share links) from the listing and this version.
  await db.schema
    .alterTable('listings')
    .addColumn('ical_token_version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('listings').addColumn('ical_token_rotated_at', ts).execute();

  // A calendar feed another platform publishes for this listing (Airbnb, Vrbo, Booking.com).
  await db.schema
    .createTable('listing_ical_feeds')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('listing_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('auto'))
    /** The platform's validators from the last good read, sent back as If-None-Match / If-Modified-Since. */
    .addColumn('etag', 'text')
    .addColumn('last_modified', 'text')
    /** Events in the last good read: an empty read after some is an error, never "no bookings". */
    .addColumn('event_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_fetch_at', ts)
    .addColumn('last_success_at', ts)
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', ts)
    .addColumn('last_warning', 'text')
    /** When the periodic import reads it next; claimed (moved to a lease) by one server (claimDue). */
    .addColumn('next_fetch_at', ts, (c) => c.notNull())
    /** While a read runs (the job's or "sync now"), until when: no second read starts before. */
    .addColumn('syncing_until', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('listing_ical_feeds_listing_idx')
    .on('listing_ical_feeds')
    .columns(['portal_id', 'listing_id'])
    .execute();
  // The import job looks across portals for feeds that are due.
  await db.schema
    .createIndex('listing_ical_feeds_due_idx')
    .on('listing_ical_feeds')
    .columns(['next_fetch_at'])
    .execute();

  // Nights closed to requests: by the owner, or marked not available by an imported feed.
  await db.schema
    .createTable('listing_blocks')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('listing_id', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('ical_feed_id', 'text')
    .addColumn('external_ref', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('listing_blocks_listing_idx')
    .on('listing_blocks')
    .columns(['portal_id', 'listing_id', 'start_date'])
    .execute();
  await db.schema
    .createIndex('listing_blocks_feed_ref_uq')
    .on('listing_blocks')
    .columns(['portal_id', 'ical_feed_id', 'external_ref'])
    .unique()
    .execute();

  // Imported reservations: the feed and whether the feed still has them (a reservation the feed
  // dropped is cancelled, and comes back if the feed lists it again; one the owner cancelled stays so).
  await db.schema.alterTable('stays').addColumn('ical_feed_id', 'text').execute();
  await db.schema
    .alterTable('stays')
    .addColumn('ical_gone', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The mail inviting the guest to review the stay, once after check-out (or skipped).
  await db.schema.alterTable('stays').addColumn('review_mailed_at', ts).execute();
  // One stay per UID and feed, however many servers import at once.
  await db.schema
    .createIndex('stays_feed_ref_uq')
    .on('stays')
    .columns(['portal_id', 'ical_feed_id', 'external_ref'])
    .unique()
    .execute();
  // The review mail job looks across portals for stays that ended and were not yet invited.
  await db.schema
    .createIndex('stays_review_mail_idx')
    .on('stays')
    .columns(['state', 'review_mailed_at', 'end_date'])
    .execute();

  // Reviews: one per stay, by its guest, after check-out.
  await db.schema
    .createTable('reviews')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references(portalRef).onDelete('cascade'))
    .addColumn('listing_id', 'text', (c) => c.notNull())
    .addColumn('stay_id', 'text', (c) => c.notNull())
    .addColumn('guest_user_id', 'text')
    .addColumn('guest_name', 'text', (c) => c.notNull())
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('hidden_reason', 'text')
    .addColumn('answer', 'text')
    .addColumn('answered_at', ts)
    .addColumn('answered_by', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('reviews_stay_uq')
    .on('reviews')
    .columns(['portal_id', 'stay_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('reviews_listing_idx')
    .on('reviews')
    .columns(['portal_id', 'listing_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reviews').execute();
  await db.schema.dropIndex('stays_review_mail_idx').execute();
  await db.schema.dropIndex('stays_feed_ref_uq').execute();
  for (const column of ['review_mailed_at', 'ical_gone', 'ical_feed_id']) {
    await db.schema.alterTable('stays').dropColumn(column).execute();
  }
  await db.schema.dropTable('listing_blocks').execute();
  await db.schema.dropTable('listing_ical_feeds').execute();
  await db.schema.alterTable('listings').dropColumn('ical_token_rotated_at').execute();
  await db.schema.alterTable('listings').dropColumn('ical_token_version').execute();
}

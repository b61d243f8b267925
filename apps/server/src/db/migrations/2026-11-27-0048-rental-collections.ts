import type { Kysely } from 'kysely';
import {
  addCollectionChangeTriggers,
  dropCollectionChangeTriggers,
  type ChangeFeed,
} from './2026-11-27-0042-collections';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 21, item 3 (docs/decisions.md "Collections"): the change log of the rental collections.
// Every table here has its own portal_id, so each record is named by its own row (reviews too: a
// review's row names its portal; its listing is not needed to find it).
//
// `listing` is what a row of GET listing shows: its title, category, published flag and deletion
// (a deleted listing keeps its row, with deleted_at: a tombstone), and, as child tables, its locks
// (how many), its images (the cover) and its stays (requests waiting, the next arrival). A save of
// the listing is always one (it writes the listing's locks again); the row lock approvals and
// imports take (updated_at alone), a new share or calendar link and the share-lock timings are
// none, nor is a stay's access and mail bookkeeping (only its state and start date count). A
// renamed category is heard in `listingCategory`'s log, not as a change of each of its listings.
//
// `listingCategory`: added, renamed, deleted (its count of listings is read with it, no change).
// `reviews`: written, answered, hidden, shown again (updated_at alone is no change).
// `userImages`: a listing's images (not a lock's arrival pictures, the same table): uploaded, alt
// text or position changed, removed. `listingAccessList`: its entries, added, changed, removed
// (updated_at alone is no change).
//
// `listingUser` has no feed: its records are (listing, person) pairs named by the person's id,
// which repeats for every listing they look after, so one id cannot say which pair changed.
const FEEDS: ChangeFeed[] = [
  {
    collection: 'listing',
    table: 'listings',
    recordColumn: 'id',
    columns: ['title', 'category_id', 'published', 'deleted_at'],
    deletedWhen: (row) => `${row}.deleted_at is not null`,
  },
  {
    collection: 'listing',
    table: 'listing_locks',
    recordColumn: 'listing_id',
    parentTable: 'listings',
    where: (row) => `${row}.deleted_at is null`,
  },
  // A lock's arrival picture names the lock as its owner, so no listing is found for it.
  {
    collection: 'listing',
    table: 'user_images',
    recordColumn: 'owner_id',
    parentTable: 'listings',
    where: (row) => `${row}.deleted_at is null`,
  },
  {
    collection: 'listing',
    table: 'stays',
    recordColumn: 'listing_id',
    parentTable: 'listings',
    where: (row) => `${row}.deleted_at is null`,
    columns: ['state', 'start_date'],
  },
  { collection: 'listingCategory', table: 'listing_categories', recordColumn: 'id' },
  {
    collection: 'reviews',
    table: 'reviews',
    recordColumn: 'id',
    columns: ['guest_name', 'rating', 'text', 'state', 'hidden_reason', 'answer', 'answered_at'],
  },
  {
    collection: 'userImages',
    table: 'user_images',
    recordColumn: 'id',
    where: (row) => `${row}.owner_type = 'listing'`,
  },
  {
    collection: 'listingAccessList',
    table: 'listing_access_lists',
    recordColumn: 'id',
    columns: ['name', 'email', 'phone', 'anchor', 'start_offset', 'end_offset'],
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const feed of FEEDS) await addCollectionChangeTriggers(db, feed);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const feed of [...FEEDS].reverse()) await dropCollectionChangeTriggers(db, feed);
}

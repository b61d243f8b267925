import { sql, type Insertable, type Updateable } from 'kysely';
import type { Database } from '../../db/database';
import { containsText } from '../../db/like';
import { nowIso } from '../../db/mappers';
import type {
  DeviceLandingsTable,
  DeviceRow,
  ListingAccessListsTable,
  ListingRow,
  ListingsTable,
  UserImageRow,
  UserImagesTable,
} from '../../db/schema';
import { memberNameColumn } from '../../base/tenancy/memberships.repository';

// Listings and what hangs off them. Every query is scoped by portal id (images too: their public
// address names the portal, see images in listings.routes.ts).

export function findListing(
  db: Database,
  portalId: string,
  listingId: string,
): Promise<ListingRow | undefined> {
  return db
    .selectFrom('listings')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('id', '=', listingId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A listing even once deleted: its stays still name it. */
export function findListingEvenDeleted(db: Database, portalId: string, listingId: string) {
  return db
    .selectFrom('listings')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('id', '=', listingId)
    .executeTakeFirst();
}

export async function insertListing(db: Database, row: Insertable<ListingsTable>): Promise<void> {
  await db.insertInto('listings').values(row).execute();
}

export async function updateListing(
  db: Database,
  portalId: string,
  listingId: string,
  patch: Updateable<ListingsTable>,
): Promise<void> {
  await db
    .updateTable('listings')
    .set({ ...patch, updated_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('id', '=', listingId)
    .execute();
}

/**
 * Takes the listing's row lock for the transaction (an update that changes nothing): approvals,
 * the owner's blocks and an import's batches of one listing go one at a time.
 */
export async function lockListingRow(db: Database, portalId: string, listingId: string): Promise<void> {
  await db
    .updateTable('listings')
    .set({ updated_at: sql<string>`updated_at` })
    .where('portal_id', '=', portalId)
    .where('id', '=', listingId)
    .execute();
}

export async function listListings(
  db: Database,
  portalId: string,
  query: {
    skip: number;
    limit: number;
    search?: string;
    sortBy?: 'title' | 'createdAt';
    descending: boolean;
    published?: boolean;
    categoryId?: string;
  },
) {
  let base = db.selectFrom('listings').where('portal_id', '=', portalId).where('deleted_at', 'is', null);
  if (query.search) base = base.where(containsText('title', query.search));
  if (query.published !== undefined) base = base.where('published', '=', query.published ? 1 : 0);
  if (query.categoryId) base = base.where('category_id', '=', query.categoryId);
  const column = { title: 'title', createdAt: 'created_at' } as const;
  const direction = query.descending ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(column[query.sortBy ?? 'title'], direction)
      .orderBy('id', direction)
      .limit(query.limit)
      .offset(query.skip)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

/** The live locks of a listing, in its order. */
export function listLocksOfListing(db: Database, portalId: string, listingId: string): Promise<DeviceRow[]> {
  return db
    .selectFrom('listing_locks as ll')
    .innerJoin('devices as d', (j) =>
      j.onRef('d.id', '=', 'll.device_id').onRef('d.portal_id', '=', 'll.portal_id'),
    )
    .selectAll('d')
    .where('ll.portal_id', '=', portalId)
    .where('ll.listing_id', '=', listingId)
    .where('d.deleted_at', 'is', null)
    .orderBy('ll.position')
    .orderBy('d.name')
    .execute();
}

/** How many live locks each listing opens. */
export async function countLocksOfListings(db: Database, portalId: string, listingIds: string[]) {
  if (listingIds.length === 0) return new Map<string, number>();
  const rows = await db
    .selectFrom('listing_locks as ll')
    .innerJoin('devices as d', (j) =>
      j.onRef('d.id', '=', 'll.device_id').onRef('d.portal_id', '=', 'll.portal_id'),
    )
    .select(['ll.listing_id', (eb) => eb.fn.countAll().as('locks')])
    .where('ll.portal_id', '=', portalId)
    .where('ll.listing_id', 'in', listingIds)
    .where('d.deleted_at', 'is', null)
    .groupBy('ll.listing_id')
    .execute();
  return new Map(rows.map((row) => [row.listing_id, Number(row.locks)]));
}

export async function replaceListingLocks(
  db: Database,
  portalId: string,
  listingId: string,
  deviceIds: readonly string[],
): Promise<void> {
  await db
    .deleteFrom('listing_locks')
    .where('portal_id', '=', portalId)
    .where('listing_id', '=', listingId)
    .execute();
  if (deviceIds.length === 0) return;
  await db
    .insertInto('listing_locks')
    .values(
      deviceIds.map((deviceId, position) => ({
        portal_id: portalId,
        listing_id: listingId,
        device_id: deviceId,
        position,
      })),
    )
    .execute();
}

// Categories

export async function listCategories(db: Database, portalId: string) {
  const rows = await db
    .selectFrom('listing_categories as c')
    .leftJoin('listings as l', (j) =>
      j
        .onRef('l.category_id', '=', 'c.id')
        .onRef('l.portal_id', '=', 'c.portal_id')
        .on('l.deleted_at', 'is', null),
    )
    .select(['c.id', 'c.name', 'c.created_at', (eb) => eb.fn.count('l.id').as('listings')])
    .where('c.portal_id', '=', portalId)
    .groupBy(['c.id', 'c.name', 'c.created_at'])
    .orderBy('c.name')
    .execute();
  return rows.map((row) => ({ ...row, listings: Number(row.listings) }));
}

export function findCategory(db: Database, portalId: string, categoryId: string) {
  return db
    .selectFrom('listing_categories')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('id', '=', categoryId)
    .executeTakeFirst();
}

export function findCategoryByName(db: Database, portalId: string, name: string) {
  return db
    .selectFrom('listing_categories')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
    .executeTakeFirst();
}

export async function insertCategory(db: Database, row: { id: string; portal_id: string; name: string }) {
  await db
    .insertInto('listing_categories')
    .values({ ...row, created_at: nowIso() })
    .execute();
}

export async function renameCategory(db: Database, portalId: string, categoryId: string, name: string) {
  await db
    .updateTable('listing_categories')
    .set({ name })
    .where('portal_id', '=', portalId)
    .where('id', '=', categoryId)
    .execute();
}

/** Deletes a category; its listings keep going without one. */
export async function deleteCategory(db: Database, portalId: string, categoryId: string) {
  await db
    .updateTable('listings')
    .set({ category_id: null })
    .where('portal_id', '=', portalId)
    .where('category_id', '=', categoryId)
    .execute();
  await db
    .deleteFrom('listing_categories')
    .where('portal_id', '=', portalId)
    .where('id', '=', categoryId)
    .execute();
}

// Access lists

export function listAccessList(db: Database, portalId: string, listingId: string) {
  return db
    .selectFrom('listing_access_lists')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('listing_id', '=', listingId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findAccessListEntry(db: Database, portalId: string, listingId: string, entryId: string) {
  return db
    .selectFrom('listing_access_lists')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('listing_id', '=', listingId)
    .where('id', '=', entryId)
    .executeTakeFirst();
}

export async function insertAccessListEntry(db: Database, row: Insertable<ListingAccessListsTable>) {
  await db.insertInto('listing_access_lists').values(row).execute();
}

export async function updateAccessListEntry(
  db: Database,
  portalId: string,
  entryId: string,
  patch: Updateable<ListingAccessListsTable>,
) {
  await db
    .updateTable('listing_access_lists')
    .set({ ...patch, updated_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('id', '=', entryId)
    .execute();
}

export async function deleteAccessListEntry(db: Database, portalId: string, entryId: string) {
  await db
    .deleteFrom('listing_access_lists')
    .where('portal_id', '=', portalId)
    .where('id', '=', entryId)
    .execute();
}

// Listing users: members who look after a listing

/** The members who look after a listing, with the portal's name for them. */
export function listListingUsers(db: Database, portalId: string, listingId: string) {
  return db
    .selectFrom('listing_users as lu')
    .innerJoin('memberships as m', (j) =>
      j.onRef('m.user_id', '=', 'lu.user_id').onRef('m.portal_id', '=', 'lu.portal_id'),
    )
    .innerJoin('users as u', 'u.id', 'lu.user_id')
    .select([
      'u.id',
      'u.email',
      'm.status',
      memberNameColumn('first_name').as('first_name'),
      memberNameColumn('last_name').as('last_name'),
    ])
    .where('lu.portal_id', '=', portalId)
    .where('lu.listing_id', '=', listingId)
    .orderBy('u.email')
    .execute();
}

export async function addListingUser(db: Database, portalId: string, listingId: string, userId: string) {
  await db
    .insertInto('listing_users')
    .values({ portal_id: portalId, listing_id: listingId, user_id: userId, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['portal_id', 'listing_id', 'user_id']).doNothing())
    .execute();
}

export async function removeListingUser(db: Database, portalId: string, listingId: string, userId: string) {
  await db
    .deleteFrom('listing_users')
    .where('portal_id', '=', portalId)
    .where('listing_id', '=', listingId)
    .where('user_id', '=', userId)
    .execute();
}

// Images

export type ImageOwnerType = UserImagesTable['owner_type'];

export function listImagesOf(db: Database, portalId: string, ownerType: ImageOwnerType, ownerIds: string[]) {
  if (ownerIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('user_images')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('owner_type', '=', ownerType)
    .where('owner_id', 'in', ownerIds)
    .orderBy('position')
    .orderBy('created_at')
    .execute();
}

export function findImage(db: Database, portalId: string, imageId: string) {
  return db
    .selectFrom('user_images')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('id', '=', imageId)
    .executeTakeFirst();
}

/**
 * Whether an image is still shown anywhere: a listing's while the listing is not deleted; a lock's
 * arrival picture while the lock is not deleted and, once it is on listings, while one of them is
 * not (a lock on no listing yet keeps them: its admins are writing its arrival instructions).
 */
export async function imageOwnerLive(
  db: Database,
  image: Pick<UserImageRow, 'portal_id' | 'owner_type' | 'owner_id'>,
): Promise<boolean> {
  if (image.owner_type === 'listing') {
    const listing = await db
      .selectFrom('listings')
      .select('id')
      .where('portal_id', '=', image.portal_id)
      .where('id', '=', image.owner_id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return listing !== undefined;
  }
  const lock = await db
    .selectFrom('devices')
    .select('id')
    .where('portal_id', '=', image.portal_id)
    .where('id', '=', image.owner_id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!lock) return false;
  const listings = await db
    .selectFrom('listing_locks as ll')
    .innerJoin('listings as l', (j) =>
      j.onRef('l.id', '=', 'll.listing_id').onRef('l.portal_id', '=', 'll.portal_id'),
    )
    .select(['l.deleted_at'])
    .where('ll.portal_id', '=', image.portal_id)
    .where('ll.device_id', '=', image.owner_id)
    .execute();
  return listings.length === 0 || listings.some((l) => l.deleted_at === null);
}

export async function countImagesOf(
  db: Database,
  portalId: string,
  ownerType: ImageOwnerType,
  ownerId: string,
) {
  const row = await db
    .selectFrom('user_images')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('portal_id', '=', portalId)
    .where('owner_type', '=', ownerType)
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertImage(db: Database, row: Insertable<UserImagesTable>) {
  await db.insertInto('user_images').values(row).execute();
}

export async function updateImage(
  db: Database,
  portalId: string,
  imageId: string,
  patch: Pick<Updateable<UserImagesTable>, 'alt' | 'position'>,
) {
  await db
    .updateTable('user_images')
    .set(patch)
    .where('portal_id', '=', portalId)
    .where('id', '=', imageId)
    .execute();
}

export async function deleteImageRow(db: Database, portalId: string, imageId: string) {
  await db.deleteFrom('user_images').where('portal_id', '=', portalId).where('id', '=', imageId).execute();
}

// Arrival instructions per lock

export function findLanding(db: Database, portalId: string, deviceId: string) {
  return db
    .selectFrom('device_landings')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .executeTakeFirst();
}

export function listLandingsOf(db: Database, portalId: string, deviceIds: string[]) {
  if (deviceIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('device_landings')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('device_id', 'in', deviceIds)
    .execute();
}

export async function saveLanding(db: Database, row: Insertable<DeviceLandingsTable>) {
  await db
    .insertInto('device_landings')
    .values(row)
    .onConflict((oc) =>
      oc.column('device_id').doUpdateSet((eb) => ({
        text: eb.ref('excluded.text'),
        wifi_name: eb.ref('excluded.wifi_name'),
        wifi_password: eb.ref('excluded.wifi_password'),
        parking: eb.ref('excluded.parking'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

// What a listing's card shows of its stays (read here so listings import nothing of stays).

/** How many requests wait for an answer, per listing. */
export async function countPendingRequests(db: Database, portalId: string, listingIds: string[]) {
  if (listingIds.length === 0) return new Map<string, number>();
  const rows = await db
    .selectFrom('stays')
    .select(['listing_id', (eb) => eb.fn.countAll().as('pending')])
    .where('portal_id', '=', portalId)
    .where('listing_id', 'in', listingIds)
    .where('state', '=', 'requested')
    .groupBy('listing_id')
    .execute();
  return new Map(rows.map((row) => [row.listing_id, Number(row.pending)]));
}

/** Each listing's next approved arrival on or after `fromDate`. */
export async function nextArrivals(db: Database, portalId: string, listingIds: string[], fromDate: string) {
  if (listingIds.length === 0) return new Map<string, string>();
  const rows = await db
    .selectFrom('stays')
    .select(['listing_id', (eb) => eb.fn.min('start_date').as('next')])
    .where('portal_id', '=', portalId)
    .where('listing_id', 'in', listingIds)
    .where('state', '=', 'approved')
    .where('start_date', '>=', fromDate)
    .groupBy('listing_id')
    .execute();
  return new Map(rows.map((row) => [row.listing_id, String(row.next)]));
}

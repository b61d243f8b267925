// The listing itself: finding it, presenting it, listing a portal's listings, creating, saving,
// its share-lock settings and deleting it. Its categories, access list, people and images are
// aggregates of their own, changed on their own routes: categories.service.ts,
// access-list.service.ts, listing-users.service.ts, listing-images.service.ts.
import crypto from 'node:crypto';
import {
  listingInputSchema,
  localWallTime,
  type Listing,
  type ListingInput,
  type ListingsPage,
  type ListingsQuery,
} from '@latchkey/shared';
import { listingCurrency, listingPrice } from './listing-price';
import type { z } from 'zod';
import type { Database } from '../../db/database';
import { nowIso, toCount, toIso } from '../../db/mappers';
import type { DeviceRow, ListingRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { emitDomainEvent } from '../../base/events/domain-events';
import './listing-events';
import { recordChange } from '../../base/audit/audit.repository';
import { reportedCapabilities } from '../devices/device.presenter';
import { findDevices } from '../devices/devices.repository';
import { listingTimeZone } from './listing-clock';
import {
  countLocksOfListings,
  countPendingRequests,
  findCategory,
  findListing,
  insertListing,
  listAccessList,
  listCategories,
  listImagesOf,
  listListingUsers,
  listListings,
  listLocksOfListing,
  nextArrivals,
  replaceListingLocks,
  updateListing,
} from './listings.repository';
import { personName, presentAccessListEntry, presentImages } from './listings.presenter';

type ListingValues = z.output<typeof listingInputSchema>;

function field(path: string, message: string): never {
  throw AppError.badRequest(`${path.replace(/^body\./, '')} ${message}`, [{ path, message }]);
}

export async function requireListing(db: Database, portalId: string, listingId: string): Promise<ListingRow> {
  const listing = await findListing(db, portalId, listingId);
  if (!listing) throw AppError.notFound('Listing');
  return listing;
}

/** GET listing/{id}: a listing with its locks, images, access list and people. */
export async function presentListing(db: Database, listing: ListingRow): Promise<Listing> {
  const portalId = listing.portal_id;
  const [locks, images, category, accessList, users, pending] = await Promise.all([
    listLocksOfListing(db, portalId, listing.id),
    listImagesOf(db, portalId, 'listing', [listing.id]),
    listing.category_id ? findCategory(db, portalId, listing.category_id) : undefined,
    listAccessList(db, portalId, listing.id),
    listListingUsers(db, portalId, listing.id),
    countPendingRequests(db, portalId, [listing.id]),
  ]);
  return {
    _id: listing.id,
    title: listing.title,
    description: listing.description,
    category: category ? { _id: category.id, name: category.name } : null,
    address: listing.address,
    timeZone: locks.length > 0 ? listingTimeZone(locks) : null,
    locks: locks.map((d) => ({
      _id: d.id,
      name: d.name,
      model: d.model,
      timeZone: d.time_zone,
      capabilities: reportedCapabilities(d),
    })),
    images: presentImages(portalId, images),
    houseRules: listing.house_rules,
    checkInTime: listing.check_in_time,
    checkOutTime: listing.check_out_time,
    initialTime: listing.initial_minutes,
    startTime: listing.start_time,
    minNights: listing.min_nights,
    maxNights: listing.max_nights,
    autoAccept: Number(listing.auto_accept) === 1,
    published: Number(listing.published) === 1,
    nightlyPrice: listingPrice(listing)?.nightly ?? null,
    currency: listingCurrency(listing),
    accessList: accessList.map(presentAccessListEntry),
    users: users.map((u) => ({ _id: u.id, name: personName(u), email: u.email })),
    pendingRequests: pending.get(listing.id) ?? 0,
    createdAt: toIso(listing.created_at),
    updatedAt: toIso(listing.updated_at),
  };
}

export async function getListing(db: Database, portalId: string, listingId: string): Promise<Listing> {
  return presentListing(db, await requireListing(db, portalId, listingId));
}

/** GET listing: the portal's listings, paged, searchable by title, filterable. */
export async function getListings(
  db: Database,
  portalId: string,
  query: ListingsQuery,
): Promise<ListingsPage> {
  let published: boolean | undefined;
  let categoryId: string | undefined;
  if (query.filterBy === 'published') {
    if (query.filterValue !== 'true' && query.filterValue !== 'false') {
      field('querystring.filterValue', 'must be true or false');
    }
    published = query.filterValue === 'true';
  }
  if (query.filterBy === 'categoryId') categoryId = query.filterValue;
  const { rows, total } = await listListings(db, portalId, { ...query, published, categoryId });
  return { items: await summarizeListings(db, portalId, rows), total: toCount(total) };
}

/** Listings as a row of GET listing shows them (also the `listing` collection's ls). */
export async function summarizeListings(
  db: Database,
  portalId: string,
  rows: ListingRow[],
): Promise<ListingsPage['items']> {
  const ids = rows.map((r) => r.id);
  const today = localWallTime(new Date(), 'UTC').date;
  const [locks, pending, arrivals, images, categories] = await Promise.all([
    countLocksOfListings(db, portalId, ids),
    countPendingRequests(db, portalId, ids),
    nextArrivals(db, portalId, ids, today),
    listImagesOf(db, portalId, 'listing', ids),
    listCategories(db, portalId),
  ]);
  const categoryById = new Map(categories.map((c) => [c.id, c]));
  return rows.map((row) => {
    const category = row.category_id ? categoryById.get(row.category_id) : undefined;
    const cover = images.find((image) => image.owner_id === row.id);
    return {
      _id: row.id,
      title: row.title,
      category: category ? { _id: category.id, name: category.name } : null,
      published: Number(row.published) === 1,
      locks: locks.get(row.id) ?? 0,
      cover: cover ? presentImages(portalId, [cover])[0]! : null,
      pendingRequests: pending.get(row.id) ?? 0,
      nextArrival: arrivals.get(row.id) ?? null,
      createdAt: toIso(row.created_at),
    };
  });
}

/** The listing's locks, checked: all in the portal (404 otherwise), all on one clock. */
async function requireLocks(db: Database, portalId: string, deviceIds: string[]): Promise<DeviceRow[]> {
  const found = await findDevices(db, portalId, deviceIds);
  if (found.length !== deviceIds.length) throw AppError.notFound('Lock');
  const byId = new Map(found.map((d) => [d.id, d]));
  const locks = deviceIds.map((id) => byId.get(id)!);
  const zones = [...new Set(locks.map((d) => d.time_zone))];
  if (zones.length > 1) {
    field(
      'body.deviceIds',
      `must share one time zone (stays are counted on the locks' clock); these are in ${zones.join(' and ')}`,
    );
  }
  return locks;
}

async function requireCategory(db: Database, portalId: string, categoryId: string | null) {
  if (categoryId === null) return null;
  const category = await findCategory(db, portalId, categoryId);
  if (!category) throw AppError.notFound('Category');
  return category;
}

function columnsOf(input: ListingValues) {
  return {
    title: input.title,
    description: input.description,
    category_id: input.categoryId,
    address: input.address,
    house_rules: input.houseRules,
    check_in_time: input.checkInTime,
    check_out_time: input.checkOutTime,
    initial_minutes: input.initialTime,
    start_time: input.startTime,
    min_nights: input.minNights,
    max_nights: input.maxNights,
    auto_accept: input.autoAccept ? 1 : 0,
    published: input.published ? 1 : 0,
    nightly_price: input.nightlyPrice,
    currency: input.currency,
  };
}

/** What the change log keeps of a listing. */
function logged(listing: Listing) {
  const { images: _images, accessList: _list, users: _users, pendingRequests: _pending, ...rest } = listing;
  return { ...rest, locks: rest.locks.map((l) => l.name) };
}

/** POST listing/new. */
export async function createListing(
  db: Database,
  context: ChangeContext,
  input: ListingValues,
): Promise<Listing> {
  return db.transaction().execute(async (trx) => {
    await requireLocks(trx, context.portalId, input.deviceIds);
    await requireCategory(trx, context.portalId, input.categoryId);
    const id = crypto.randomUUID();
    const now = nowIso();
    await insertListing(trx, {
      id,
      portal_id: context.portalId,
      ...columnsOf(input),
      created_at: now,
      updated_at: now,
    });
    await replaceListingLocks(trx, context.portalId, id, input.deviceIds);
    const listing = await presentListing(trx, (await findListing(trx, context.portalId, id))!);
    await recordChange(trx, context, {
      action: 'listing.create',
      entityType: 'listing',
      entityId: id,
      after: logged(listing),
    });
    return listing;
  });
}

/** POST listing/{id}: every field; its stays' access follows the new locks and times at once. */
export async function saveListing(
  db: Database,
  context: ChangeContext,
  listingId: string,
  input: ListingValues,
): Promise<Listing> {
  return changeAccess(db, async (trx, touch) => {
    const row = await requireListing(trx, context.portalId, listingId);
    await requireLocks(trx, context.portalId, input.deviceIds);
    await requireCategory(trx, context.portalId, input.categoryId);
    const before = await presentListing(trx, row);
    await updateListing(trx, context.portalId, listingId, columnsOf(input));
    await replaceListingLocks(trx, context.portalId, listingId, input.deviceIds);
    const updated = (await findListing(trx, context.portalId, listingId))!;
    await emitDomainEvent(trx, 'ListingAccessChanged', { listing: updated, touch, now: new Date() });
    const after = await presentListing(trx, updated);
    await recordChange(trx, context, {
      action: 'listing.update',
      entityType: 'listing',
      entityId: listingId,
      before: logged(before),
      after: logged(after),
    });
    return after;
  });
}

/** Applies the share-lock settings (POST device/{id}/sharelock) like a save of those fields. */
export async function saveShareSettings(
  db: Database,
  context: ChangeContext,
  listingId: string,
  patch: { published?: boolean; initialTime?: number; startTime?: string | null; autoAccept?: boolean },
): Promise<ListingRow> {
  return changeAccess(db, async (trx, touch) => {
    const row = await requireListing(trx, context.portalId, listingId);
    const startTime = patch.startTime === undefined ? row.start_time : patch.startTime;
    if (startTime !== null && startTime > row.check_in_time) {
      field('body.startTime', `must not be after the check-in time (${row.check_in_time})`);
    }
    const next = {
      published: patch.published === undefined ? row.published : patch.published ? 1 : 0,
      initial_minutes: patch.initialTime ?? row.initial_minutes,
      start_time: startTime,
      auto_accept: patch.autoAccept === undefined ? row.auto_accept : patch.autoAccept ? 1 : 0,
    };
    await updateListing(trx, context.portalId, listingId, next);
    const updated = (await findListing(trx, context.portalId, listingId))!;
    await emitDomainEvent(trx, 'ListingAccessChanged', { listing: updated, touch, now: new Date() });
    await recordChange(trx, context, {
      action: 'listing.sharelock',
      entityType: 'listing',
      entityId: listingId,
      before: {
        enabled: Number(row.published) === 1,
        initialTime: row.initial_minutes,
        startTime: row.start_time,
        autoAccept: Number(row.auto_accept) === 1,
      },
      after: {
        enabled: next.published === 1,
        initialTime: next.initial_minutes,
        startTime: next.start_time,
        autoAccept: next.auto_accept === 1,
      },
    });
    return updated;
  });
}

/** DELETE listing/{id}: refused while it has stays that have not ended (cancel them first). */
export async function deleteListing(db: Database, context: ChangeContext, listingId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await requireListing(trx, context.portalId, listingId);
    await emitDomainEvent(trx, 'ListingDeleting', { listing: row, now: new Date() });
    await updateListing(trx, context.portalId, listingId, { deleted_at: nowIso(), published: 0 });
    await recordChange(trx, context, {
      action: 'listing.delete',
      entityType: 'listing',
      entityId: listingId,
      before: { title: row.title },
    });
  });
}

export type { ListingInput };

import crypto from 'node:crypto';
import {
  accessListEntryInputSchema,
  listingInputSchema,
  localWallTime,
  type AccessListEntry,
  type AccessListEntryInput,
  type Listing,
  type ListingCategory,
  type ListingInput,
  type ListingsPage,
  type ListingsQuery,
  type ListingUser,
  type RentalImage,
  type RentalImageUpdate,
} from '@latchkey/shared';
import type { z } from 'zod';
import { isUniqueViolation, type Database } from '../../db/database';
import { nowIso, toCount, toIso } from '../../db/mappers';
import type { DeviceRow, ListingRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { emitDomainEvent } from '../../base/events/domain-events';
import './listing-events';
import { recordChange } from '../../base/audit/audit.repository';
import { findDevices } from '../devices/devices.repository';
import { findMember } from '../../base/tenancy/memberships.repository';
import { listingTimeZone } from './listing-clock';
import { countPendingRequests, nextArrivals } from './listings.repository';
import { removeImage, storeImage, type ImageSize, imageKey } from './image-processing';
import type { ImageStore } from './image-store';
import {
  addListingUser,
  countImagesOf,
  countLocksOfListings,
  deleteAccessListEntry,
  deleteCategory,
  deleteImageRow,
  findAccessListEntry,
  findCategory,
  findCategoryByName,
  findImage,
  imageOwnerLive,
  findListing,
  insertAccessListEntry,
  insertCategory,
  insertImage,
  insertListing,
  listAccessList,
  listCategories,
  listImagesOf,
  listListingUsers,
  listListings,
  listLocksOfListing,
  removeListingUser,
  renameCategory,
  replaceListingLocks,
  updateAccessListEntry,
  updateImage,
  updateListing,
  type ImageOwnerType,
} from './listings.repository';
import { presentAccessListEntry, presentImages } from './listings.presenter';

type ListingValues = z.output<typeof listingInputSchema>;
type AccessListValues = z.output<typeof accessListEntryInputSchema>;

/** Images per listing (and per lock's arrival instructions). */
export const MAX_IMAGES = 20;

function field(path: string, message: string): never {
  throw AppError.badRequest(`${path.replace(/^body\./, '')} ${message}`, [{ path, message }]);
}

export async function requireListing(db: Database, portalId: string, listingId: string): Promise<ListingRow> {
  const listing = await findListing(db, portalId, listingId);
  if (!listing) throw AppError.notFound('Listing');
  return listing;
}

const personName = (m: { first_name: string; last_name: string; email: string }) =>
  [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email;

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
    locks: locks.map((d) => ({ _id: d.id, name: d.name, model: d.model, timeZone: d.time_zone })),
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
  return {
    items: rows.map((row) => {
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
    }),
    total: toCount(total),
  };
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

// Categories

function presentCategory(row: { id: string; name: string; listings: number }): ListingCategory {
  return { _id: row.id, name: row.name, listings: row.listings };
}

export async function getCategories(db: Database, portalId: string): Promise<ListingCategory[]> {
  return (await listCategories(db, portalId)).map(presentCategory);
}

async function assertFreeCategoryName(db: Database, portalId: string, name: string, exceptId?: string) {
  const taken = await findCategoryByName(db, portalId, name);
  if (taken && taken.id !== exceptId) throw AppError.conflict(`A category named ${taken.name} exists`);
}

export async function createCategory(
  db: Database,
  context: ChangeContext,
  name: string,
): Promise<ListingCategory> {
  return db.transaction().execute(async (trx) => {
    await assertFreeCategoryName(trx, context.portalId, name);
    const id = crypto.randomUUID();
    try {
      await insertCategory(trx, { id, portal_id: context.portalId, name });
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.conflict(`A category named ${name} exists`);
      throw error;
    }
    await recordChange(trx, context, {
      action: 'listing.category.create',
      entityType: 'listing_category',
      entityId: id,
      after: { name },
    });
    return { _id: id, name, listings: 0 };
  });
}

export async function saveCategory(
  db: Database,
  context: ChangeContext,
  categoryId: string,
  name: string,
): Promise<ListingCategory> {
  return db.transaction().execute(async (trx) => {
    const category = await findCategory(trx, context.portalId, categoryId);
    if (!category) throw AppError.notFound('Category');
    await assertFreeCategoryName(trx, context.portalId, name, categoryId);
    await renameCategory(trx, context.portalId, categoryId, name);
    await recordChange(trx, context, {
      action: 'listing.category.update',
      entityType: 'listing_category',
      entityId: categoryId,
      before: { name: category.name },
      after: { name },
    });
    return presentCategory((await listCategories(trx, context.portalId)).find((c) => c.id === categoryId)!);
  });
}

export async function removeCategory(
  db: Database,
  context: ChangeContext,
  categoryId: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const category = await findCategory(trx, context.portalId, categoryId);
    if (!category) throw AppError.notFound('Category');
    await deleteCategory(trx, context.portalId, categoryId);
    await recordChange(trx, context, {
      action: 'listing.category.delete',
      entityType: 'listing_category',
      entityId: categoryId,
      before: { name: category.name },
    });
  });
}

// Access lists

export async function getAccessList(
  db: Database,
  portalId: string,
  listingId: string,
): Promise<AccessListEntry[]> {
  await requireListing(db, portalId, listingId);
  return (await listAccessList(db, portalId, listingId)).map(presentAccessListEntry);
}

function accessListColumns(input: AccessListValues) {
  return {
    name: input.name,
    email: input.email || null,
    phone: input.phone || null,
    anchor: input.anchor,
    start_offset: input.startOffset,
    end_offset: input.endOffset,
  };
}

/** Adds someone to the access list; the listing's current and upcoming stays give them access at once. */
export async function createAccessListEntry(
  db: Database,
  context: ChangeContext,
  listingId: string,
  input: AccessListValues,
): Promise<AccessListEntry> {
  return changeAccess(db, async (trx, touch) => {
    const listing = await requireListing(trx, context.portalId, listingId);
    if ((await listAccessList(trx, context.portalId, listingId)).length >= 10) {
      throw AppError.conflict('A listing has at most 10 people on its access list');
    }
    const id = crypto.randomUUID();
    const now = nowIso();
    await insertAccessListEntry(trx, {
      id,
      portal_id: context.portalId,
      listing_id: listingId,
      ...accessListColumns(input),
      created_at: now,
      updated_at: now,
    });
    await emitDomainEvent(trx, 'ListingAccessChanged', { listing: listing, touch, now: new Date() });
    const entry = presentAccessListEntry((await findAccessListEntry(trx, context.portalId, listingId, id))!);
    await recordChange(trx, context, {
      action: 'listing.accessList.create',
      entityType: 'listing_access_list',
      entityId: id,
      after: { listing: listing.title, ...entry },
    });
    return entry;
  });
}

export async function saveAccessListEntry(
  db: Database,
  context: ChangeContext,
  listingId: string,
  entryId: string,
  input: AccessListValues,
): Promise<AccessListEntry> {
  return changeAccess(db, async (trx, touch) => {
    const listing = await requireListing(trx, context.portalId, listingId);
    const row = await findAccessListEntry(trx, context.portalId, listingId, entryId);
    if (!row) throw AppError.notFound('Access list entry');
    await updateAccessListEntry(trx, context.portalId, entryId, accessListColumns(input));
    await emitDomainEvent(trx, 'ListingAccessChanged', { listing: listing, touch, now: new Date() });
    const entry = presentAccessListEntry(
      (await findAccessListEntry(trx, context.portalId, listingId, entryId))!,
    );
    await recordChange(trx, context, {
      action: 'listing.accessList.update',
      entityType: 'listing_access_list',
      entityId: entryId,
      before: presentAccessListEntry(row),
      after: entry,
    });
    return entry;
  });
}

export async function removeAccessListEntry(
  db: Database,
  context: ChangeContext,
  listingId: string,
  entryId: string,
): Promise<void> {
  await changeAccess(db, async (trx, touch) => {
    const listing = await requireListing(trx, context.portalId, listingId);
    const row = await findAccessListEntry(trx, context.portalId, listingId, entryId);
    if (!row) throw AppError.notFound('Access list entry');
    await deleteAccessListEntry(trx, context.portalId, entryId);
    await emitDomainEvent(trx, 'ListingAccessChanged', { listing: listing, touch, now: new Date() });
    await recordChange(trx, context, {
      action: 'listing.accessList.delete',
      entityType: 'listing_access_list',
      entityId: entryId,
      before: presentAccessListEntry(row),
    });
  });
}

export type { AccessListEntryInput, ListingInput };

// Listing users

export async function getListingUsers(
  db: Database,
  portalId: string,
  listingId: string,
): Promise<ListingUser[]> {
  await requireListing(db, portalId, listingId);
  return (await listListingUsers(db, portalId, listingId)).map((u) => ({
    _id: u.id,
    name: personName(u),
    email: u.email,
  }));
}

export async function putListingUser(
  db: Database,
  context: ChangeContext,
  listingId: string,
  userId: string,
) {
  await db.transaction().execute(async (trx) => {
    const listing = await requireListing(trx, context.portalId, listingId);
    const member = await findMember(trx, context.portalId, userId);
    if (!member) throw AppError.notFound('Person');
    await addListingUser(trx, context.portalId, listingId, userId);
    await recordChange(trx, context, {
      action: 'listing.user.add',
      entityType: 'listing',
      entityId: listingId,
      userId,
      after: { listing: listing.title, user: member.email },
    });
  });
  return getListingUsers(db, context.portalId, listingId);
}

export async function deleteListingUser(
  db: Database,
  context: ChangeContext,
  listingId: string,
  userId: string,
) {
  await db.transaction().execute(async (trx) => {
    const listing = await requireListing(trx, context.portalId, listingId);
    const member = await findMember(trx, context.portalId, userId);
    if (!member) throw AppError.notFound('Person');
    await removeListingUser(trx, context.portalId, listingId, userId);
    await recordChange(trx, context, {
      action: 'listing.user.remove',
      entityType: 'listing',
      entityId: listingId,
      userId,
      before: { listing: listing.title, user: member.email },
    });
  });
}

// Images

/** Stores an uploaded image for a listing or a lock's arrival instructions, at the end of their order. */
export async function addImage(
  db: Database,
  store: ImageStore,
  context: ChangeContext,
  owner: { type: ImageOwnerType; id: string; label: string; deviceId?: string },
  upload: Buffer,
  alt: string,
): Promise<RentalImage> {
  if ((await countImagesOf(db, context.portalId, owner.type, owner.id)) >= MAX_IMAGES) {
    throw AppError.conflict(`At most ${MAX_IMAGES} images`);
  }
  const id = crypto.randomUUID();
  // The bytes go to the store first: a failed upload leaves no record pointing at nothing.
  const stored = await storeImage(store, id, upload);
  try {
    return await db.transaction().execute(async (trx) => {
      const count = await countImagesOf(trx, context.portalId, owner.type, owner.id);
      await insertImage(trx, {
        id,
        portal_id: context.portalId,
        owner_type: owner.type,
        owner_id: owner.id,
        storage_key: imageKey(id, 'large'),
        width: stored.width,
        height: stored.height,
        bytes: stored.bytes,
        alt,
        position: count,
        created_at: nowIso(),
      });
      await recordChange(trx, context, {
        action: `${owner.type}.image.add`,
        entityType: owner.type === 'listing' ? 'listing' : 'device',
        entityId: owner.id,
        deviceId: owner.deviceId ?? null,
        after: { [owner.type]: owner.label, imageId: id, alt, width: stored.width, height: stored.height },
      });
      return presentImages(context.portalId, [(await findImage(trx, context.portalId, id))!])[0]!;
    });
  } catch (error) {
    await removeImage(store, id);
    throw error;
  }
}

async function requireImageOf(
  db: Database,
  portalId: string,
  ownerType: ImageOwnerType,
  ownerId: string,
  imageId: string,
) {
  const image = await findImage(db, portalId, imageId);
  if (!image || image.owner_type !== ownerType || image.owner_id !== ownerId)
    throw AppError.notFound('Image');
  return image;
}

/** Alt text and position; moving an image shifts the others so positions stay 0…n-1. */
export async function editImage(
  db: Database,
  context: ChangeContext,
  owner: { type: ImageOwnerType; id: string },
  imageId: string,
  patch: RentalImageUpdate,
): Promise<RentalImage> {
  return db.transaction().execute(async (trx) => {
    const image = await requireImageOf(trx, context.portalId, owner.type, owner.id, imageId);
    if (patch.alt !== undefined) await updateImage(trx, context.portalId, imageId, { alt: patch.alt });
    if (patch.position !== undefined) {
      const all = await listImagesOf(trx, context.portalId, owner.type, [owner.id]);
      const others = all.filter((i) => i.id !== imageId);
      const at = Math.min(patch.position, others.length);
      const ordered = [...others.slice(0, at), image, ...others.slice(at)];
      for (const [position, item] of ordered.entries()) {
        if (item.position !== position) await updateImage(trx, context.portalId, item.id, { position });
      }
    }
    await recordChange(trx, context, {
      action: `${owner.type}.image.update`,
      entityType: owner.type === 'listing' ? 'listing' : 'device',
      entityId: owner.id,
      before: { imageId, alt: image.alt, position: image.position },
      after: { imageId, ...patch },
    });
    return presentImages(context.portalId, [(await findImage(trx, context.portalId, imageId))!])[0]!;
  });
}

export async function deleteImage(
  db: Database,
  store: ImageStore,
  context: ChangeContext,
  owner: { type: ImageOwnerType; id: string },
  imageId: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const image = await requireImageOf(trx, context.portalId, owner.type, owner.id, imageId);
    await deleteImageRow(trx, context.portalId, imageId);
    const rest = await listImagesOf(trx, context.portalId, owner.type, [owner.id]);
    for (const [position, item] of rest.entries()) {
      if (item.position !== position) await updateImage(trx, context.portalId, item.id, { position });
    }
    await recordChange(trx, context, {
      action: `${owner.type}.image.delete`,
      entityType: owner.type === 'listing' ? 'listing' : 'device',
      entityId: owner.id,
      before: { imageId, alt: image.alt },
    });
  });
  // After the commit: a rolled-back delete keeps its bytes.
  await removeImage(store, imageId);
}

/** GET image/{portalId}/{imageId}/{size}: an image's bytes, for anyone holding its address. */
export async function readImage(
  db: Database,
  store: ImageStore,
  portalId: string,
  imageId: string,
  size: ImageSize,
) {
  const image = await findImage(db, portalId, imageId);
  // A deleted listing's pictures (and its locks' arrival pictures) are no longer anyone's to see.
  if (!image || !(await imageOwnerLive(db, image))) throw AppError.notFound('Image');
  const stored = await store.get(imageKey(imageId, size));
  if (!stored) throw AppError.notFound('Image');
  return stored;
}

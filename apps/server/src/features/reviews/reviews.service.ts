import crypto from 'node:crypto';
import {
  type PublicReviews,
  type Review,
  type ReviewInput,
  type ReviewInvitation,
  type ReviewModeration,
  type ReviewsPage,
  type ReviewsQuery,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { containsText } from '../../db/like';
import { nowIso, toCount, toIso } from '../../db/mappers';
import type { ReviewRow, StayRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { appendAuditEntry, recordChange } from '../../base/audit/audit.repository';
import { findListingEvenDeleted, listLocksOfListing } from '../listings/listings.repository';
import { requireListing } from '../listings/listings.service';
import { reviewWindow } from './review-window';
import { listingTimeZone } from '../listings/listing-clock';
import type { StayDeps } from '../rental/rental-context';

/**
 * Reviews (issue 12, R2; docs/decisions.md "Rentals: calendars, iCal, reviews"): the guest of an
 * approved stay reviews it once, from the day of check-out for REVIEW_WINDOW_DAYS, through the
 * review link (mailed after check-out, and in their account's rental center); it is published at
 * once under their first name; the listing's admins answer it or hide an abusive one. Audited.
 */

/** The first name a review is shown under. */
export function firstNameOf(name: string): string {
  return (name.trim().split(/\s+/)[0] ?? '').slice(0, 40) || 'A guest';
}

function presentReview(row: ReviewRow, stay: Pick<StayRow, 'start_date' | 'end_date'>): Review {
  return {
    _id: row.id,
    listingId: row.listing_id,
    stayId: row.stay_id,
    guestName: row.guest_name,
    rating: row.rating,
    text: row.text,
    state: row.state,
    hiddenReason: row.hidden_reason,
    answer: row.answer,
    answeredAt: toIso(row.answered_at),
    stayStartDate: stay.start_date,
    stayEndDate: stay.end_date,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** A review link's stay and its listing; 404 for anything else (a forged link, a cancelled stay's). */
async function openReviewToken(db: Database, deps: StayDeps, token: string) {
  const read = deps.tokens.read(token);
  const notFound = () => AppError.notFound('Review link');
  if (!read || read.kind !== 'review') throw notFound();
  // The link is the proof; the stay's portal comes from its row.
  const stay = await db.selectFrom('stays').selectAll().where('id', '=', read.id).executeTakeFirst();
  if (!stay || stay.guest_token_version !== read.version) throw notFound();
  const listing = await findListingEvenDeleted(db, stay.portal_id, stay.listing_id);
  if (!listing) throw notFound();
  const locks = await listLocksOfListing(db, stay.portal_id, listing.id);
  return { stay, listing, timeZone: listingTimeZone(locks) };
}

function findReviewOfStay(db: Database, portalId: string, stayId: string) {
  return db
    .selectFrom('reviews')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('stay_id', '=', stayId)
    .executeTakeFirst();
}

/** GET review/{token} (no sign-in): the stay to review, whether reviews are open, the review if written. */
export async function getReviewInvitation(
  db: Database,
  deps: StayDeps,
  token: string,
  now = new Date(),
): Promise<ReviewInvitation> {
  const { stay, listing, timeZone } = await openReviewToken(db, deps, token);
  const review = await findReviewOfStay(db, stay.portal_id, stay.id);
  const window = reviewWindow(stay, listing, timeZone, now);
  return {
    listingTitle: listing.title,
    guestName: firstNameOf(stay.guest_name),
    startDate: stay.start_date,
    endDate: stay.end_date,
    open: window.open && !review && listing.deleted_at === null,
    reason: review
      ? 'You reviewed this stay'
      : listing.deleted_at !== null
        ? 'This listing is no longer offered'
        : window.reason,
    closesOn: window.closesOn,
    review: review
      ? {
          rating: review.rating,
          text: review.text,
          state: review.state,
          answer: review.state === 'published' ? review.answer : null,
          createdAt: toIso(review.created_at),
        }
      : null,
    listingPath: Number(listing.published) === 1 && listing.deleted_at === null ? `/s/r/${listing.id}` : null,
  };
}

/**
 * POST review/{token} (no sign-in): the guest's review, once per stay, while reviews are open
 * (409 otherwise). Published at once.
 */
export async function submitReview(
  db: Database,
  deps: StayDeps,
  token: string,
  input: Required<ReviewInput>,
  ip: string,
  now = new Date(),
): Promise<ReviewInvitation> {
  const { stay, listing, timeZone } = await openReviewToken(db, deps, token);
  const window = reviewWindow(stay, listing, timeZone, now);
  if (!window.open) throw AppError.conflict(window.reason ?? 'Reviews are closed for this stay');
  if (listing.deleted_at !== null) throw AppError.conflict('This listing is no longer offered');
  const id = crypto.randomUUID();
  const at = nowIso();
  await db.transaction().execute(async (trx) => {
    if (await findReviewOfStay(trx, stay.portal_id, stay.id))
      throw AppError.conflict('You reviewed this stay');
    try {
      await trx
        .insertInto('reviews')
        .values({
          id,
          portal_id: stay.portal_id,
          listing_id: listing.id,
          stay_id: stay.id,
          guest_user_id: stay.guest_user_id,
          guest_name: firstNameOf(stay.guest_name),
          rating: input.rating,
          text: input.text,
          state: 'published',
          hidden_reason: null,
          answer: null,
          answered_at: null,
          answered_by: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
    } catch {
      // Two submissions at once: the unique index lets one in.
      throw AppError.conflict('You reviewed this stay');
    }
    await appendAuditEntry(trx, stay.portal_id, {
      actorUserId: stay.guest_user_id,
      action: 'review.create',
      entityType: 'review',
      entityId: id,
      after: { listing: listing.title, stayId: stay.id, rating: input.rating, text: input.text },
      ip,
    });
  });
  return getReviewInvitation(db, deps, token, now);
}

/**
 * One review of a live listing of the portal, as the listing's reviews show it (the `reviews`
 * collection's GET); 404 for another portal's, a deleted listing's or no review.
 */
export async function getReview(db: Database, portalId: string, reviewId: string): Promise<Review> {
  const row = await db
    .selectFrom('reviews as r')
    .innerJoin('stays as s', (j) =>
      j.onRef('s.id', '=', 'r.stay_id').onRef('s.portal_id', '=', 'r.portal_id'),
    )
    .selectAll('r')
    .select(['s.start_date', 's.end_date'])
    .where('r.portal_id', '=', portalId)
    .where('r.id', '=', reviewId)
    .executeTakeFirst();
  if (!row) throw AppError.notFound('Review');
  // As GET listing/{id}/review: a deleted listing's reviews are no longer the admins' to read.
  await requireListing(db, portalId, row.listing_id);
  return presentReview(row, row);
}

/** GET listing/{id}/review (admin): a listing's reviews, paged; sorted by date or rating; filtered. */
export async function listReviews(
  db: Database,
  portalId: string,
  listingId: string,
  query: ReviewsQuery,
): Promise<ReviewsPage> {
  await requireListing(db, portalId, listingId);
  let base = db
    .selectFrom('reviews as r')
    .innerJoin('stays as s', (j) =>
      j.onRef('s.id', '=', 'r.stay_id').onRef('s.portal_id', '=', 'r.portal_id'),
    )
    .where('r.portal_id', '=', portalId)
    .where('r.listing_id', '=', listingId);
  if (query.filterBy === 'state') {
    if (query.filterValue !== 'published' && query.filterValue !== 'hidden') {
      throw AppError.badRequest('filterValue must be published or hidden', [
        { path: 'querystring.filterValue', message: 'must be published or hidden' },
      ]);
    }
    base = base.where('r.state', '=', query.filterValue);
  }
  if (query.filterBy === 'rating') {
    const rating = Number(query.filterValue);
    if (!/^[1-5]$/.test(query.filterValue ?? '')) {
      throw AppError.badRequest('filterValue must be a rating from 1 to 5', [
        { path: 'querystring.filterValue', message: 'must be a rating from 1 to 5' },
      ]);
    }
    base = base.where('r.rating', '=', rating);
  }
  if (query.search) {
    const term = query.search;
    base = base.where((eb) => eb.or([containsText('r.text', term), containsText('r.guest_name', term)]));
  }
  const direction = query.descending ? 'desc' : 'asc';
  const column = query.sortBy === 'rating' ? 'r.rating' : 'r.created_at';
  const [rows, count] = await Promise.all([
    base
      .selectAll('r')
      .select(['s.start_date', 's.end_date'])
      .orderBy(column, direction)
      .orderBy('r.id', direction)
      .limit(query.limit)
      .offset(query.skip)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map((row) => presentReview(row, row)), total: toCount(count.total) };
}

/** POST listing/{id}/review/{reviewId} (admin): answer (empty: take the answer back), hide, show again. */
export async function moderateReview(
  db: Database,
  context: ChangeContext,
  listingId: string,
  reviewId: string,
  action: ReviewModeration,
): Promise<Review> {
  return db.transaction().execute(async (trx) => {
    await requireListing(trx, context.portalId, listingId);
    const before = await trx
      .selectFrom('reviews')
      .selectAll()
      .where('portal_id', '=', context.portalId)
      .where('listing_id', '=', listingId)
      .where('id', '=', reviewId)
      .executeTakeFirst();
    if (!before) throw AppError.notFound('Review');
    const at = nowIso();
    const patch =
      action.action === 'answer'
        ? action.answer
          ? { answer: action.answer, answered_at: at, answered_by: context.actorUserId }
          : { answer: null, answered_at: null, answered_by: null }
        : action.action === 'hide'
          ? { state: 'hidden' as const, hidden_reason: action.reason }
          : { state: 'published' as const, hidden_reason: null };
    await trx
      .updateTable('reviews')
      .set({ ...patch, updated_at: at })
      .where('portal_id', '=', context.portalId)
      .where('id', '=', reviewId)
      .execute();
    await recordChange(trx, context, {
      action: `review.${action.action}`,
      entityType: 'review',
      entityId: reviewId,
      before: { state: before.state, answer: before.answer, hiddenReason: before.hidden_reason },
      after:
        action.action === 'answer'
          ? { answer: action.answer || null }
          : action.action === 'hide'
            ? { state: 'hidden', reason: action.reason }
            : { state: 'published' },
    });
    const row = (await trx
      .selectFrom('reviews as r')
      .innerJoin('stays as s', (j) =>
        j.onRef('s.id', '=', 'r.stay_id').onRef('s.portal_id', '=', 'r.portal_id'),
      )
      .selectAll('r')
      .select(['s.start_date', 's.end_date'])
      .where('r.portal_id', '=', context.portalId)
      .where('r.id', '=', reviewId)
      .executeTakeFirst())!;
    return presentReview(row, row);
  });
}

/** The public page's reviews: count and mean of the published ones, the newest 20. */
export async function publicReviewsOf(
  db: Database,
  portalId: string,
  listingId: string,
): Promise<PublicReviews> {
  const published = db
    .selectFrom('reviews as r')
    .where('r.portal_id', '=', portalId)
    .where('r.listing_id', '=', listingId)
    .where('r.state', '=', 'published');
  const [summary, rows] = await Promise.all([
    published
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.avg('r.rating').as('mean')])
      .executeTakeFirstOrThrow(),
    published
      .innerJoin('stays as s', (j) =>
        j.onRef('s.id', '=', 'r.stay_id').onRef('s.portal_id', '=', 'r.portal_id'),
      )
      .select(['r.id', 'r.guest_name', 'r.rating', 'r.text', 'r.answer', 'r.created_at', 's.start_date'])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(20)
      .execute(),
  ]);
  const count = toCount(summary.n as string | number);
  return {
    count,
    average: count > 0 ? Math.round(Number(summary.mean) * 10) / 10 : null,
    items: rows.map((row) => ({
      _id: row.id,
      guestName: row.guest_name,
      rating: row.rating,
      text: row.text,
      answer: row.answer,
      stayMonth: row.start_date.slice(0, 7),
      createdAt: toIso(row.created_at),
    })),
  };
}

import type { MyReviews, OwnReview, ReviewableStay } from '@latchkey/shared';
import type { RequestAuth } from '../../base/http/request-auth';
import type { Database } from '../../db/database';
import { toCount, toIso } from '../../db/mappers';
import { listingTimeZone } from '../listings/listing-clock';
import { listLocksOfListing } from '../listings/listings.repository';
import type { StayDeps } from '../rental/rental-context';
import { reviewPath, reviewWindow } from './review-window';

/** How many of each list the screen shows: the newest. */
const SHOWN = 50;
/** How many of the hosted listings' reviews: the newest; the rest are on each listing's page. */
const HOSTED_SHOWN = 20;

/**
 * The stays a person kept as a guest (any portal: the guest link they saved proved it) that may be
 * reviewed now and are not yet: the review itself goes through the review link, as from the mail.
 */
async function staysToReview(
  db: Database,
  deps: StayDeps,
  userId: string,
  reviewed: ReadonlySet<string>,
  now: Date,
): Promise<ReviewableStay[]> {
  const stays = await db
    .selectFrom('stays as s')
    .innerJoin('listings as l', (j) =>
      j.onRef('l.id', '=', 's.listing_id').onRef('l.portal_id', '=', 's.portal_id'),
    )
    .selectAll('s')
    .select(['l.title as listing_title', 'l.check_out_time as listing_check_out'])
    .where('s.guest_user_id', '=', userId)
    .where('s.state', '=', 'approved')
    .where('l.deleted_at', 'is', null)
    .orderBy('s.end_date', 'desc')
    .limit(SHOWN)
    .execute();
  const zones = new Map<string, string>();
  const answer: ReviewableStay[] = [];
  for (const stay of stays) {
    if (reviewed.has(stay.id)) continue;
    let timeZone = zones.get(stay.listing_id);
    if (timeZone === undefined) {
      timeZone = listingTimeZone(await listLocksOfListing(db, stay.portal_id, stay.listing_id));
      zones.set(stay.listing_id, timeZone);
    }
    const window = reviewWindow(stay, { check_out_time: stay.listing_check_out }, timeZone, now);
    if (!window.open) continue;
    answer.push({
      stayId: stay.id,
      listingTitle: stay.listing_title,
      startDate: stay.start_date,
      endDate: stay.end_date,
      closesOn: window.closesOn,
      reviewPath: reviewPath(deps, stay),
    });
  }
  return answer;
}

/** The reviews a person wrote as a guest, newest first, with the host's answer while published. */
async function reviewsWritten(db: Database, userId: string): Promise<OwnReview[]> {
  const rows = await db
    .selectFrom('reviews as r')
    .innerJoin('stays as s', (j) =>
      j.onRef('s.id', '=', 'r.stay_id').onRef('s.portal_id', '=', 'r.portal_id'),
    )
    .innerJoin('listings as l', (j) =>
      j.onRef('l.id', '=', 'r.listing_id').onRef('l.portal_id', '=', 'r.portal_id'),
    )
    .selectAll('r')
    .select(['s.start_date', 's.end_date', 'l.title as listing_title'])
    // Theirs as written, or of a stay they saved to their account after writing it.
    .where((eb) => eb.or([eb('r.guest_user_id', '=', userId), eb('s.guest_user_id', '=', userId)]))
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(SHOWN)
    .execute();
  return rows.map((row) => ({
    _id: row.id,
    listingTitle: row.listing_title,
    rating: row.rating,
    text: row.text,
    state: row.state,
    answer: row.state === 'published' ? row.answer : null,
    stayStartDate: row.start_date,
    stayEndDate: row.end_date,
    createdAt: toIso(row.created_at),
  }));
}

/** The newest reviews of every listing of a portal (its admins'), and how many there are. */
async function reviewsOfPortalListings(db: Database, portalId: string) {
  const base = db
    .selectFrom('reviews as r')
    .innerJoin('stays as s', (j) =>
      j.onRef('s.id', '=', 'r.stay_id').onRef('s.portal_id', '=', 'r.portal_id'),
    )
    .innerJoin('listings as l', (j) =>
      j.onRef('l.id', '=', 'r.listing_id').onRef('l.portal_id', '=', 'r.portal_id'),
    )
    .where('r.portal_id', '=', portalId)
    .where('l.deleted_at', 'is', null);
  const [rows, count] = await Promise.all([
    base
      .selectAll('r')
      .select(['s.start_date', 's.end_date', 'l.title as listing_title'])
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id', 'desc')
      .limit(HOSTED_SHOWN)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return {
    total: toCount(count.total),
    items: rows.map((row) => ({
      _id: row.id,
      listingId: row.listing_id,
      listingTitle: row.listing_title,
      stayId: row.stay_id,
      guestName: row.guest_name,
      rating: row.rating,
      text: row.text,
      state: row.state,
      hiddenReason: row.hidden_reason,
      answer: row.answer,
      answeredAt: toIso(row.answered_at),
      stayStartDate: row.start_date,
      stayEndDate: row.end_date,
      createdAt: toIso(row.created_at),
      updatedAt: toIso(row.updated_at),
    })),
  };
}

/**
 * GET reviews/mine (any signed-in person): the stays they may review, the reviews they wrote, and,
 * for an admin of the portal they act in, the reviews of its listings. Only ever the person's own
 * stays and reviews (by their user id) and the acting portal's listings.
 */
export async function getMyReviews(
  db: Database,
  deps: StayDeps,
  auth: RequestAuth,
  now = new Date(),
): Promise<MyReviews> {
  const userId = auth.user.id;
  const written = await reviewsWritten(db, userId);
  // A stay of theirs is reviewed whoever's account the review was written from.
  const reviewed = new Set(
    (
      await db
        .selectFrom('reviews as r')
        .innerJoin('stays as s', (j) =>
          j.onRef('s.id', '=', 'r.stay_id').onRef('s.portal_id', '=', 'r.portal_id'),
        )
        .select('r.stay_id')
        .where('s.guest_user_id', '=', userId)
        .execute()
    ).map((row) => row.stay_id),
  );
  const toReview = await staysToReview(db, deps, userId, reviewed, now);
  const acting = auth.acting;
  const hosting =
    acting && acting.role === 'admin'
      ? { portalName: acting.portal.name, ...(await reviewsOfPortalListings(db, acting.portal.id)) }
      : null;
  return { toReview, written, hosting };
}

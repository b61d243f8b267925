// The guest's side of a stay, without signing in: the listing's public request page (its reviews
// are added in public-listing.ts) and a request for free dates, mailed to the requester and the
// hosts. Apart from the host's side (stays.service.ts): another audience, no portal to act in.
import crypto from 'node:crypto';
import {
  addDaysToDate,
  formatCalendarDate,
  formatCalendarRange,
  nightsBetween,
  quoteStay,
  type PublicListing,
  type StayRequestInput,
  type StayRequestReceipt,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import type { ListingRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { listAdminEmails } from '../alerts/alerts.repository';
import { storeNotice } from '../alerts/notices';
import { appendAuditEntry } from '../../base/audit/audit.repository';
import { emitDomainEvent } from '../../base/events/domain-events';
import './stay-events';
import {
  findCategory,
  listImagesOf,
  listListingUsers,
  lockListingRow,
} from '../listings/listings.repository';
import { presentImages } from '../listings/listings.presenter';
import { sendMail } from '../../base/mail/send-mail';
import { listingTimeZone } from '../listings/listing-clock';
import { listingPrice } from '../listings/listing-price';
import { newRequestMail, requestReceivedMail } from './stays.mail';
import { findOverlappingStays, findStay, insertStay, listTakenNights } from './stays.repository';
import { findOverlappingBlocks } from '../listings/listing-blocks.repository';
import type { StayDeps } from '../rental/rental-context';
import { approveIn, field, locksOf, todayAt } from './stay-rules';
import { assertFeatureEnabled } from '../../base/feature-flags/feature-flags';

/** How far ahead a stay may be requested. */
const MAX_DAYS_AHEAD = 730;

/**
 * The one query across portals, for the public pages: a published listing by its id (the request
 * page's address names only the listing). Unpublished and deleted listings are not found.
 */
export async function findPublishedListing(db: Database, listingId: string): Promise<ListingRow> {
  const listing = await db
    .selectFrom('listings')
    .selectAll()
    .where('id', '=', listingId)
    .where('published', '=', 1)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!listing) throw AppError.notFound('Listing');
  return listing;
}

/**
 * GET listing/{id}/public without its reviews (public-listing.ts adds them: stays import nothing of
 * reviews): what the request page shows; no address, no guest, no code. With the listing's row.
 */
export async function publicListingWithoutReviews(
  db: Database,
  listingId: string,
): Promise<{ listing: ListingRow; page: Omit<PublicListing, 'reviews'> }> {
  const listing = await findPublishedListing(db, listingId);
  const locks = await locksOf(db, listing);
  if (locks.length === 0) throw AppError.notFound('Listing');
  const timeZone = listingTimeZone(locks);
  const today = todayAt(timeZone);
  const [category, images, taken] = await Promise.all([
    listing.category_id ? findCategory(db, listing.portal_id, listing.category_id) : undefined,
    listImagesOf(db, listing.portal_id, 'listing', [listing.id]),
    // Approved stays and blocked nights (the owner's, and those imported feeds mark), as dates only.
    listTakenNights(db, listing.portal_id, listing.id, today),
  ]);
  const page = {
    _id: listing.id,
    title: listing.title,
    description: listing.description,
    category: category?.name ?? null,
    houseRules: listing.house_rules,
    checkInTime: listing.check_in_time,
    checkOutTime: listing.check_out_time,
    minNights: listing.min_nights,
    maxNights: listing.max_nights,
    timeZone,
    today,
    images: presentImages(listing.portal_id, images),
    taken,
    autoAccept: Number(listing.auto_accept) === 1,
    price: listingPrice(listing),
  };
  return { listing, page };
}

/** The people told of a listing's requests: the people who look after it, else the portal's admins. */
async function hostAddresses(db: Database, listing: ListingRow): Promise<string[]> {
  const users = (await listListingUsers(db, listing.portal_id, listing.id)).filter(
    (u) => u.status === 'active',
  );
  return users.length > 0 ? users.map((u) => u.email) : listAdminEmails(db, listing.portal_id);
}

/** Checks a requester's dates against the listing's calendar and limits: a 400 that says which. */
function checkRequestedDates(
  listing: ListingRow,
  input: { startDate: string; endDate: string },
  today: string,
) {
  if (input.startDate < today)
    field('body.startDate', `is in the past (today is ${formatCalendarDate(today)} where the listing is)`);
  if (input.startDate > addDaysToDate(today, MAX_DAYS_AHEAD)) {
    field('body.startDate', `is too far ahead (at most ${MAX_DAYS_AHEAD} days)`);
  }
  const nights = nightsBetween(input.startDate, input.endDate);
  if (nights < listing.min_nights) {
    field(
      'body.endDate',
      `makes ${nights} night${nights === 1 ? '' : 's'}; a stay here is at least ${listing.min_nights}`,
    );
  }
  if (nights > listing.max_nights) {
    field('body.endDate', `makes ${nights} nights; a stay here is at most ${listing.max_nights}`);
  }
}

/**
 * POST device/{listingId}/request (no sign-in): stores a request for free dates within the
 * listing's limits, mails the requester and the hosts, and approves it at once when the listing
 * says so and its locks can take it. Anything wrong is a 400 and nothing is stored.
 */
export async function requestStay(
  db: Database,
  deps: StayDeps,
  listingId: string,
  input: Required<StayRequestInput>,
  ip: string,
): Promise<StayRequestReceipt> {
  const listing = await findPublishedListing(db, listingId);
  // Rentals switched off for the portal (platform feature flags): no new requests come in.
  await assertFeatureEnabled(db, listing.portal_id, 'rentals');
  const locks = await locksOf(db, listing);
  if (locks.length === 0) throw AppError.notFound('Listing');
  const timeZone = listingTimeZone(locks);
  checkRequestedDates(listing, input, todayAt(timeZone));
  const quote = quoteStay(listingPrice(listing), nightsBetween(input.startDate, input.endDate));
  const stayId = crypto.randomUUID();
  const now = new Date();
  const at = now.toISOString();

  const store = async (trx: Database) => {
    await lockListingRow(trx, listing.portal_id, listing.id);
    const taken = await findOverlappingStays(trx, listing.portal_id, listing.id, input);
    const blocked = await findOverlappingBlocks(trx, listing.portal_id, listing.id, input);
    if (taken.length > 0 || blocked.length > 0)
      field('body.startDate', 'falls on nights that are already taken; choose other dates');
    await insertStay(trx, {
      id: stayId,
      portal_id: listing.portal_id,
      listing_id: listing.id,
      guest_name: input.name,
      guest_email: input.email,
      guest_phone: input.phone || null,
      note: input.note,
      start_date: input.startDate,
      end_date: input.endDate,
      check_in_time: null,
      check_out_time: null,
      state: 'requested',
      source: 'request',
      external_ref: null,
      reason: null,
      guest_user_id: null,
      access_changed_at: null,
      guest_mailed_at: null,
      decided_at: null,
      decided_by: null,
      created_at: at,
      updated_at: at,
      // The total shown to the guest when they asked, kept: a later price change does not rewrite it.
      quoted_total: quote?.total ?? null,
      quoted_currency: quote?.currency ?? null,
    });
    await appendAuditEntry(trx, listing.portal_id, {
      actorUserId: null,
      action: 'stay.request',
      entityType: 'stay',
      entityId: stayId,
      after: {
        listing: listing.title,
        guestName: input.name,
        startDate: input.startDate,
        endDate: input.endDate,
      },
      ip,
    });
    const stored = (await findStay(trx, listing.portal_id, listing.id, stayId))!;
    await emitDomainEvent(trx, 'StayChanged', { stay: stored, change: 'requested', now });
    return stored;
  };

  let stay = await db.transaction().execute(store);
  let approved = false;
  if (Number(listing.auto_accept) === 1) {
    // Accepted at once when the locks can take it; otherwise it waits for the host like any other.
    try {
      stay = await changeAccess(db, async (trx, touch) => {
        const done = await approveIn(trx, touch, stay, listing, null, now);
        await appendAuditEntry(trx, listing.portal_id, {
          actorUserId: null,
          action: 'stay.approve',
          entityType: 'stay',
          entityId: stayId,
          after: { automatically: true, startDate: done.start_date, endDate: done.end_date },
        });
        await emitDomainEvent(trx, 'StayChanged', { stay: done, change: 'approved', now });
        return done;
      });
      approved = true;
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 409) throw error;
    }
  }

  const facts = {
    guestName: stay.guest_name,
    listingTitle: listing.title,
    startDate: stay.start_date,
    endDate: stay.end_date,
  };
  const notice = await db.transaction().execute(async (trx) => {
    // The requester's own receipt: counted per address by the request limits (countRequestMail).
    await sendMail(trx, 'to-requester', {
      portalId: listing.portal_id,
      template: 'stay_request_received',
      to: stay.guest_email,
      ...requestReceivedMail({ ...facts, approved }),
    });
    const link = `${deps.publicUrl}/app/listing/${listing.id}/request/${stay.id}`;
    for (const to of await hostAddresses(trx, listing)) {
      await sendMail(trx, 'system', {
        portalId: listing.portal_id,
        template: 'stay_request_host',
        to,
        ...newRequestMail({ ...facts, link, approved, quote }),
      });
    }
    // The host's inbox (the bell, the alerts screen): once per stay, with the mail to the hosts.
    const nights = nightsBetween(stay.start_date, stay.end_date);
    return storeNotice(trx, listing.portal_id, {
      kind: 'stay_request',
      title: approved
        ? `${stay.guest_name} booked ${listing.title}`
        : `${stay.guest_name} asks to stay at ${listing.title}`,
      // Said as it was when it came: whether it still waits is on the request's page and the dashboard.
      message: `${formatCalendarRange(stay.start_date, stay.end_date)}, ${nights} night${nights === 1 ? '' : 's'}.${approved ? ' Accepted automatically.' : ''}`,
      subject: {
        type: 'stay',
        _id: stay.id,
        name: `${stay.guest_name} · ${listing.title}`,
        listingId: listing.id,
      },
      onceKey: `stay_request:${stay.id}`,
    });
  });
  deps.announce?.(stay);
  deps.notify?.(listing.portal_id, notice);
  return {
    _id: stay.id,
    state: approved ? 'approved' : 'requested',
    startDate: stay.start_date,
    endDate: stay.end_date,
    message: approved
      ? 'Your stay is booked. Your access code follows by mail once the lock has it.'
      : 'Your request was sent. The host will answer by mail.',
  };
}

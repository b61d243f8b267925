import crypto from 'node:crypto';
import {
  addDaysToDate,
  localWallTime,
  nightsBetween,
  stayAccessWindow,
  type PublicListing,
  type Stay,
  type StayAction,
  type StayRequestInput,
  type StayRequestReceipt,
  type StaysPage,
  type StaysQuery,
} from '@latchkey/shared';
import { sql } from 'kysely';
import type { Database } from '../../db/database';
import { nowIso, toCount, toIso } from '../../db/mappers';
import type { DeviceRow, ListingRow, StayRow, UserRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { changeAccess, type Touch } from '../../base/access-changes/touched-locks';
import { listAdminEmails } from '../alerts/alerts.repository';
import { appendAuditEntry, recordChange } from '../../base/audit/audit.repository';
import {
  findCategory,
  findListing,
  listImagesOf,
  listListingUsers,
  listLocksOfListing,
} from '../listings/listings.repository';
import { presentImages } from '../listings/listings.presenter';
import { assertMaySendInvitations, type MailThrottle } from '../../base/mail/mail-throttle';
import { sendMail, trySendMail } from '../../base/mail/send-mail';
import {
  describeStayAccess,
  entriesPerLock,
  expireFinishedAccess,
  lockCapacities,
  loadStayFacts,
  reconcileStayAccess,
  refuseOverCapacity,
  stayTimes,
  windowInput,
} from './stay-access';
import { listingTimeZone } from '../listings/listing-clock';
import {
  accessReadyMail,
  newRequestMail,
  requestDeclinedMail,
  requestReceivedMail,
  stayCancelledMail,
} from './stays.mail';
import { recordUnsentMail, unsentMailNotice } from './stay-mail';
import {
  findOverlappingStays,
  findStay,
  insertStay,
  listStaysOfListing,
  listTakenNights,
  updateStay,
} from './stays.repository';
import { findOverlappingBlocks } from '../listings/listing-blocks.repository';
import type { StayDeps } from '../rental/rental-context';

/** How far ahead a stay may be requested. */
const MAX_DAYS_AHEAD = 730;

function field(path: string, message: string): never {
  throw AppError.badRequest(`${path.replace(/^body\./, '')} ${message}`, [{ path, message }]);
}

/** Today on the listing's calendar. */
function todayAt(timeZone: string, now = new Date()): string {
  return localWallTime(now, timeZone).date;
}

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

function locksOf(db: Database, listing: ListingRow): Promise<DeviceRow[]> {
  return listLocksOfListing(db, listing.portal_id, listing.id);
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
  };
  return { listing, page };
}

/** Takes the listing's row lock for the transaction: approvals of one listing go one at a time. */
async function lockListing(trx: Database, listing: ListingRow): Promise<void> {
  await trx
    .updateTable('listings')
    .set({ updated_at: sql<string>`updated_at` })
    .where('portal_id', '=', listing.portal_id)
    .where('id', '=', listing.id)
    .execute();
}

/** The people told of a listing's requests: the people who look after it, else the portal's admins. */
async function hostAddresses(db: Database, listing: ListingRow): Promise<string[]> {
  const users = (await listListingUsers(db, listing.portal_id, listing.id)).filter(
    (u) => u.status === 'active',
  );
  return users.length > 0 ? users.map((u) => u.email) : listAdminEmails(db, listing.portal_id);
}

/**
 * Approves a stay inside a change to access: checks the nights are still free, frees the slots of
 * finished stays on the listing's locks, gives the guest (and the access list) their access and
 * refuses, with the lock named, when a lock's memory would overflow.
 *
 * Free means no other approved stay and no block (R2): none of the owner's, and none an imported
 * feed marks as not available, except a feed's block lying within the nights this stay already
 * held (the platform echoing this stay back from the export feed, which a change would otherwise
 * collide with). `imported`: an imported reservation is a booking made elsewhere, kept (and
 * flagged on the calendar) even when it overlaps; only a full lock refuses it.
 */
export async function approveIn(
  trx: Database,
  touch: Touch,
  stay: StayRow,
  listing: ListingRow,
  decidedBy: string | null,
  now: Date,
  options: { imported?: boolean; heldBefore?: { startDate: string; endDate: string } | null } = {},
): Promise<StayRow> {
  await lockListing(trx, listing);
  const nights = { startDate: stay.start_date, endDate: stay.end_date };
  if (!options.imported) {
    const overlapping = await findOverlappingStays(trx, listing.portal_id, listing.id, nights, stay.id);
    if (overlapping.length > 0) {
      const other = overlapping[0]!;
      throw AppError.conflict(
        `These nights are taken: ${other.guest_name} stays from ${other.start_date} to ${other.end_date}`,
      );
    }
    const held = options.heldBefore;
    const blocked = (await findOverlappingBlocks(trx, listing.portal_id, listing.id, nights)).filter(
      (block) =>
        block.source === 'owner' ||
        !held ||
        block.start_date < held.startDate ||
        block.end_date > held.endDate,
    );
    if (blocked.length > 0) {
      const block = blocked[0]!;
      throw AppError.conflict(
        block.source === 'owner'
          ? `These nights are blocked from ${block.start_date} to ${block.end_date}${block.note ? ` (${block.note})` : ''}: open them on the calendar first`
          : `These nights are not available on an imported calendar from ${block.start_date} to ${block.end_date}`,
      );
    }
  }
  const at = nowIso();
  const approved: StayRow = {
    ...stay,
    state: 'approved',
    decided_at: stay.state === 'requested' ? at : stay.decided_at,
    decided_by: stay.state === 'requested' ? decidedBy : stay.decided_by,
  };
  await updateStay(trx, stay.portal_id, stay.id, {
    state: 'approved',
    start_date: approved.start_date,
    end_date: approved.end_date,
    check_in_time: approved.check_in_time,
    check_out_time: approved.check_out_time,
    decided_at: toIso(approved.decided_at),
    decided_by: approved.decided_by,
  });
  const facts = await loadStayFacts(trx, approved);
  if (facts.locks.length === 0) throw AppError.conflict(`${listing.title} opens no lock: add one first`);
  await expireFinishedAccess(
    trx,
    touch,
    stay.portal_id,
    now,
    facts.locks.map((l) => l.id),
  );
  await reconcileStayAccess(trx, touch, facts, now);
  refuseOverCapacity(await lockCapacities(trx, stay.portal_id, facts.locks));
  return (await findStay(trx, stay.portal_id, listing.id, stay.id))!;
}

/** Checks a requester's dates against the listing's calendar and limits: a 400 that says which. */
function checkRequestedDates(
  listing: ListingRow,
  input: { startDate: string; endDate: string },
  today: string,
) {
  if (input.startDate < today)
    field('body.startDate', `is in the past (today is ${today} where the listing is)`);
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
  const locks = await locksOf(db, listing);
  if (locks.length === 0) throw AppError.notFound('Listing');
  const timeZone = listingTimeZone(locks);
  checkRequestedDates(listing, input, todayAt(timeZone));
  const stayId = crypto.randomUUID();
  const now = new Date();
  const at = now.toISOString();

  const store = async (trx: Database) => {
    await lockListing(trx, listing);
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
    return (await findStay(trx, listing.portal_id, listing.id, stayId))!;
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
  await db.transaction().execute(async (trx) => {
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
        ...newRequestMail({ ...facts, link, approved }),
      });
    }
  });
  deps.announce?.(stay);
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

async function requireListing(db: Database, portalId: string, listingId: string) {
  const listing = await findListing(db, portalId, listingId);
  if (!listing) throw AppError.notFound('Listing');
  return listing;
}

async function requireStay(db: Database, portalId: string, listingId: string, stayId: string) {
  const stay = await findStay(db, portalId, listingId, stayId);
  if (!stay) throw AppError.notFound('Request');
  return stay;
}

/** The guest's landing link (/s?t=…). */
export function guestLandingPath(deps: StayDeps, stay: Pick<StayRow, 'id' | 'guest_token_version'>): string {
  return `/s?t=${encodeURIComponent(deps.tokens.sign('stay', stay.id, stay.guest_token_version))}`;
}

/** A stay as its portal's admins see it: its access per lock and, while requested, what approving would do. */
export async function presentStay(db: Database, deps: StayDeps, stay: StayRow): Promise<Stay> {
  const facts = await loadStayFacts(db, stay);
  const { listing, locks } = facts;
  const timeZone = listingTimeZone(locks);
  const window = stayAccessWindow(windowInput(stay, listing, timeZone));
  const [accessByStay, capacity, conflicts] = await Promise.all([
    describeStayAccess(db, stay.portal_id, [stay.id]),
    stay.state === 'requested'
      ? lockCapacities(db, stay.portal_id, locks, (lock) => entriesPerLock(lock, facts.accessList.length))
      : Promise.resolve([]),
    stay.state === 'requested' || stay.state === 'approved'
      ? findOverlappingStays(
          db,
          stay.portal_id,
          listing.id,
          { startDate: stay.start_date, endDate: stay.end_date },
          stay.id,
        )
      : Promise.resolve([]),
  ]);
  return {
    _id: stay.id,
    listingId: listing.id,
    listingTitle: listing.title,
    guestName: stay.guest_name,
    guestEmail: stay.guest_email,
    guestPhone: stay.guest_phone,
    note: stay.note,
    startDate: stay.start_date,
    endDate: stay.end_date,
    nights: nightsBetween(stay.start_date, stay.end_date),
    ...stayTimes(stay, listing),
    timeZone,
    state: stay.state,
    source: stay.source,
    reason: stay.reason,
    accessState: stay.access_state,
    accessFrom: window.from.toISOString(),
    accessUntil: window.until.toISOString(),
    access: accessByStay.get(stay.id) ?? [],
    capacity,
    conflicts: conflicts.map((c) => ({
      _id: c.id,
      guestName: c.guest_name,
      startDate: c.start_date,
      endDate: c.end_date,
    })),
    landingPath: stay.state === 'approved' ? guestLandingPath(deps, stay) : null,
    guestMailedAt: toIso(stay.guest_mailed_at),
    createdAt: toIso(stay.created_at),
    decidedAt: toIso(stay.decided_at),
    updatedAt: toIso(stay.updated_at),
  };
}

/** GET device/{listingId}/request/{reqId}. */
export async function getStay(
  db: Database,
  deps: StayDeps,
  portalId: string,
  listingId: string,
  stayId: string,
) {
  await requireListing(db, portalId, listingId);
  return presentStay(db, deps, await requireStay(db, portalId, listingId, stayId));
}

/** GET listing/{id}/request: a listing's requests and stays, paged. */
export async function listStays(
  db: Database,
  portalId: string,
  listingId: string,
  query: StaysQuery,
): Promise<StaysPage> {
  const listing = await requireListing(db, portalId, listingId);
  const today = todayAt(listingTimeZone(await listLocksOfListing(db, portalId, listingId)));
  let state: StayRow['state'] | undefined;
  let when: 'upcoming' | 'past' | undefined;
  if (query.filterBy === 'state') {
    const states = ['requested', 'approved', 'declined', 'cancelled'] as const;
    if (!(states as readonly string[]).includes(query.filterValue!)) {
      field('querystring.filterValue', `must be one of ${states.join(', ')}`);
    }
    state = query.filterValue as StayRow['state'];
  }
  if (query.filterBy === 'when') {
    if (query.filterValue !== 'upcoming' && query.filterValue !== 'past') {
      field('querystring.filterValue', 'must be upcoming or past');
    }
    when = query.filterValue;
  }
  const { rows, total } = await listStaysOfListing(db, portalId, listing.id, {
    ...query,
    state,
    when,
    today,
  });
  return {
    items: rows.map((row) => ({
      _id: row.id,
      listingId: row.listing_id,
      guestName: row.guest_name,
      guestEmail: row.guest_email,
      startDate: row.start_date,
      endDate: row.end_date,
      nights: nightsBetween(row.start_date, row.end_date),
      state: row.state,
      source: row.source,
      accessState: row.access_state,
      createdAt: toIso(row.created_at),
    })),
    total: toCount(total),
  };
}

/** Who acts on a stay, and the throttle a mail they cause goes through. */
export interface StayActor {
  user: UserRow;
  throttle: MailThrottle;
}

function logged(stay: StayRow) {
  return {
    guestName: stay.guest_name,
    startDate: stay.start_date,
    endDate: stay.end_date,
    checkInTime: stay.check_in_time,
    checkOutTime: stay.check_out_time,
    state: stay.state,
  };
}

/**
 * POST device/{listingId}/request/{reqId}: approve (possibly with other dates or times), decline,
 * cancel, change an approved stay (extend, shorten, late check-out) or mail the guest again. Access
 * changes reach the locks at once: the locks touched are recomputed when the change commits.
 */
export async function actOnStay(
  db: Database,
  deps: StayDeps,
  context: ChangeContext,
  actor: StayActor,
  listingId: string,
  stayId: string,
  action: StayAction,
): Promise<Stay> {
  const listing = await requireListing(db, context.portalId, listingId);
  const now = new Date();
  const before = await requireStay(db, context.portalId, listingId, stayId);
  const mailFacts = (stay: StayRow) => ({
    guestName: stay.guest_name,
    listingTitle: listing.title,
    startDate: stay.start_date,
    endDate: stay.end_date,
  });

  if (action.action === 'decline') {
    if (before.state !== 'requested')
      throw AppError.conflict(`Only a request can be declined; this stay is ${before.state}`);
    await db.transaction().execute(async (trx) => {
      await updateStay(trx, context.portalId, stayId, {
        state: 'declined',
        reason: action.reason,
        decided_at: nowIso(),
        decided_by: context.actorUserId,
      });
      if (before.guest_email) {
        await mailGuestOrRecord(trx, actor, before, 'the decline', {
          portalId: context.portalId,
          template: 'stay_declined',
          to: before.guest_email,
          ...requestDeclinedMail({ ...mailFacts(before), reason: action.reason }),
        });
      }
      await recordChange(trx, context, {
        action: 'stay.decline',
        entityType: 'stay',
        entityId: stayId,
        before: logged(before),
        after: { state: 'declined', reason: action.reason },
      });
    });
  } else if (action.action === 'cancel') {
    if (before.state !== 'approved') {
      throw AppError.conflict(`Only an approved stay can be cancelled; this one is ${before.state}`);
    }
    const reason = action.reason ?? '';
    await changeAccess(db, async (trx, touch) => {
      await updateStay(trx, context.portalId, stayId, { state: 'cancelled', reason: reason || null });
      const stay = (await findStay(trx, context.portalId, listingId, stayId))!;
      await reconcileStayAccess(trx, touch, await loadStayFacts(trx, stay), now);
      // An imported reservation's guest usually has no address here (the platform keeps it).
      if (before.guest_email) {
        await mailGuestOrRecord(trx, actor, before, 'the cancellation', {
          portalId: context.portalId,
          template: 'stay_cancelled',
          to: before.guest_email,
          ...stayCancelledMail({ ...mailFacts(before), reason }),
        });
      }
      await recordChange(trx, context, {
        action: 'stay.cancel',
        entityType: 'stay',
        entityId: stayId,
        before: logged(before),
        after: { state: 'cancelled', reason },
      });
    });
  } else if (action.action === 'approve' || action.action === 'change') {
    if (action.action === 'approve' && before.state !== 'requested') {
      throw AppError.conflict(`Only a request can be approved; this stay is ${before.state}`);
    }
    if (action.action === 'change' && before.state !== 'approved') {
      throw AppError.conflict(`Only an approved stay can be changed; this one is ${before.state}`);
    }
    const wanted: StayRow = {
      ...before,
      start_date: action.startDate ?? before.start_date,
      end_date: action.endDate ?? before.end_date,
      check_in_time: action.checkInTime ?? before.check_in_time,
      check_out_time: action.checkOutTime ?? before.check_out_time,
    };
    if (wanted.end_date <= wanted.start_date) field('body.endDate', 'must be after the arrival date');
    // The guest is mailed their access once the locks confirm it (StayAccessMonitor), for the
    // approver: someone whose address is not confirmed may not make the portal mail a guest.
    if (wanted.guest_email) assertMaySendInvitations(actor.user);
    const locks = await locksOf(db, listing);
    const today = todayAt(listingTimeZone(locks), now);
    if (wanted.end_date < today) {
      field(
        'body.endDate',
        `is in the past (today is ${today} where the listing is); cancel the stay instead`,
      );
    }
    await changeAccess(db, async (trx, touch) => {
      const after = await approveIn(trx, touch, wanted, listing, context.actorUserId, now, {
        heldBefore:
          before.state === 'approved' ? { startDate: before.start_date, endDate: before.end_date } : null,
      });
      await recordChange(trx, context, {
        action: action.action === 'approve' ? 'stay.approve' : 'stay.change',
        entityType: 'stay',
        entityId: stayId,
        before: logged(before),
        after: logged(after),
      });
    });
  } else {
    if (before.state !== 'approved' || before.access_state !== 'ready') {
      throw AppError.conflict('The access is mailed once every lock has confirmed it');
    }
    if (!before.guest_email) {
      throw AppError.conflict(
        'This guest has no email address here: pass on the code or the guest link yourself',
      );
    }
    await db.transaction().execute(async (trx) => {
      const mail = await guestAccessMail(trx, deps, before);
      if (!mail) throw AppError.conflict('The guest has no access on the locks');
      await sendMail(
        trx,
        'to-others',
        { portalId: context.portalId, template: 'stay_access', to: before.guest_email, ...mail },
        actor,
      );
      await updateStay(trx, context.portalId, stayId, { guest_mailed_at: nowIso() });
      await recordChange(trx, context, {
        action: 'stay.resend',
        entityType: 'stay',
        entityId: stayId,
        after: { guestEmail: before.guest_email },
      });
    });
  }
  const after = await requireStay(db, context.portalId, listingId, stayId);
  deps.announce?.(after);
  return presentStay(db, deps, after);
}

/**
 * A decline's or cancellation's mail to the guest: the decision stands even when the mail is
 * refused (ending a request or an access never waits on mail); the refusal is then recorded as a
 * notification the host sees, and nothing is sent.
 */
async function mailGuestOrRecord(
  trx: Database,
  actor: StayActor,
  stay: StayRow,
  what: string,
  mail: Parameters<typeof trySendMail>[1],
): Promise<void> {
  const refusal = await trySendMail(trx, mail, actor);
  if (!refusal) return;
  await recordUnsentMail(trx, stay, unsentMailNotice(stay, what, refusal), `${mail.template}:${stay.id}`);
}

/** The guest's "access ready" mail for a stay as it is now; null when the guest has no live access. */
export async function guestAccessMail(db: Database, deps: StayDeps, stay: StayRow, changed = false) {
  const facts = await loadStayFacts(db, stay);
  const access = (await describeStayAccess(db, stay.portal_id, [stay.id])).get(stay.id) ?? [];
  const guest = access.find((a) => a.holder === 'guest' && !a.removed);
  if (!guest) return null;
  return accessReadyMail({
    guestName: stay.guest_name,
    listingTitle: facts.listing.title,
    startDate: stay.start_date,
    endDate: stay.end_date,
    code: guest.code,
    accessFrom: guest.validFrom,
    accessUntil: guest.validUntil,
    timeZone: listingTimeZone(facts.locks),
    link: `${deps.publicUrl}${guestLandingPath(deps, stay)}`,
    changed,
  });
}

// The host's side of a stay: a listing's requests and stays as its portal's admins see them, and
// what they do with one (approve, decline, cancel, change, mail the guest again); the guest's
// access mail and landing link. The guest's request is stay-requests.service.ts; approving, which
// both sides do, is stay-rules.ts.
import {
  formatCalendarDate,
  nightsBetween,
  stayAccessWindow,
  type Stay,
  type StayAction,
  type StaysPage,
  type StaysQuery,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toCount, toIso } from '../../db/mappers';
import type { StayRow, UserRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { recordChange } from '../../base/audit/audit.repository';
import { emitDomainEvent } from '../../base/events/domain-events';
import './stay-events';
import { findListing, listLocksOfListing } from '../listings/listings.repository';
import { assertMaySendInvitations, type MailThrottle } from '../../base/mail/mail-throttle';
import { sendMail, trySendMail } from '../../base/mail/send-mail';
import {
  describeStayAccess,
  entriesPerLock,
  lockCapacities,
  loadStayFacts,
  reconcileStayAccess,
  stayTimes,
  windowInput,
} from './stay-access';
import { listingTimeZone } from '../listings/listing-clock';
import { stayQuote } from '../listings/listing-price';
import { accessReadyMail, requestDeclinedMail, stayCancelledMail } from './stays.mail';
import { recordUnsentMail, unsentMailNotice } from './stay-mail';
import { findOverlappingStays, findStay, listStaysOfListing, updateStay } from './stays.repository';
import type { StayDeps } from '../rental/rental-context';
import { approveIn, field, locksOf, todayAt } from './stay-rules';

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
    quote: stayQuote(stay, nightsBetween(stay.start_date, stay.end_date)),
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
      await emitDomainEvent(trx, 'StayChanged', {
        stay: { ...before, state: 'declined' },
        change: 'declined',
        now,
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
      await emitDomainEvent(trx, 'StayChanged', { stay, change: 'cancelled', now });
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
        // The guest's access ends on the listing's locks: each one's history shows it.
        deviceIds: (await locksOf(trx, listing)).map((lock) => lock.id),
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
        `is in the past (today is ${formatCalendarDate(today)} where the listing is); cancel the stay instead`,
      );
    }
    await changeAccess(db, async (trx, touch) => {
      const after = await approveIn(trx, touch, wanted, listing, context.actorUserId, now, {
        heldBefore:
          before.state === 'approved' ? { startDate: before.start_date, endDate: before.end_date } : null,
      });
      if (action.action === 'approve')
        await emitDomainEvent(trx, 'StayChanged', { stay: after, change: 'approved', now });
      await recordChange(trx, context, {
        action: action.action === 'approve' ? 'stay.approve' : 'stay.change',
        entityType: 'stay',
        entityId: stayId,
        // The guest's access on the listing's locks begins or moves: each one's history shows it.
        deviceIds: locks.map((lock) => lock.id),
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

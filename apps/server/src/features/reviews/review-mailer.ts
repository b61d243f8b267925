import { addDaysToDate, zonedInstant } from '@latchkey/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { StayRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import { PeriodicJob } from '../../base/jobs/periodic-job';
import { findListingEvenDeleted, listLocksOfListing } from '../listings/listings.repository';
import type { MailThrottle } from '../../base/mail/mail-throttle';
import { trySendMail } from '../../base/mail/send-mail';
import { reviewPath, reviewWindow } from './review-window';
import { stayTimes } from '../stays/stay-access';
import { listingTimeZone } from '../listings/listing-clock';
import { recordUnsentMail, stayMailSender, unsentMailNotice } from '../stays/stay-mail';
import { reviewInviteMail } from '../stays/stays.mail';
import type { StayDeps } from '../rental/rental-context';

/** Stays looked at per run. */
const BATCH = 200;

/**
 * After check-out, the guest gets one mail with their review link (docs/decisions.md "Rentals:
 * calendars, iCal, reviews"). A `PeriodicJob` (`stays.reviews`) looks for approved stays whose
 * check-out has passed on the listing's clock and that were not invited yet; each invitation is
 * claimed by a conditional update of `review_mailed_at` in the mail's transaction (once, whichever
 * server gets there first) and sent as mail to others for the stay's approver or the portal's owner
 * (mail/send-mail.ts): over a limit it waits for a later run; when that person's address is not
 * confirmed it is not sent, and the host sees a notification saying so. Stays without an address
 * (imported reservations: the platform keeps the guest's) are marked and skipped.
 */
export class ReviewMailer {
  private readonly job: PeriodicJob | null;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly deps: StayDeps,
    private readonly throttle: MailThrottle,
    everyMs: number,
  ) {
    this.job =
      everyMs > 0
        ? new PeriodicJob(db, log, { name: 'stays.reviews', everyMs, run: ({ now }) => this.sweep(now) })
        : null;
  }

  start(): void {
    this.job?.start();
  }

  async stop(): Promise<void> {
    await this.job?.stop();
  }

  /** One pass; answers how many invitations were queued. */
  async sweep(now = new Date()): Promise<number> {
    const utcToday = now.toISOString().slice(0, 10);
    // Zones are at most a day apart from UTC: the exact check is per listing below.
    const stays = await this.db
      .selectFrom('stays')
      .selectAll()
      .where('state', '=', 'approved')
      .where('review_mailed_at', 'is', null)
      .where('end_date', '<=', addDaysToDate(utcToday, 1))
      .orderBy('end_date')
      .limit(BATCH)
      .execute();
    let sent = 0;
    for (const stay of stays) {
      try {
        if (await this.invite(stay, now)) sent++;
      } catch (error) {
        if (error instanceof AppError && error.status === 429) continue; // the throttle: a later run
        this.log.error({ err: error, stayId: stay.id }, 'reviews: inviting a guest failed');
      }
    }
    return sent;
  }

  private async invite(stay: StayRow, now: Date): Promise<boolean> {
    const listing = await findListingEvenDeleted(this.db, stay.portal_id, stay.listing_id);
    const locks = await listLocksOfListing(this.db, stay.portal_id, stay.listing_id);
    const timeZone = listingTimeZone(locks);
    const skip = () =>
      this.db
        .updateTable('stays')
        .set({ review_mailed_at: nowIso() })
        .where('portal_id', '=', stay.portal_id)
        .where('id', '=', stay.id)
        .where('review_mailed_at', 'is', null)
        .execute();
    if (!listing || listing.deleted_at !== null || !stay.guest_email) {
      await skip();
      return false;
    }
    const checkOut = zonedInstant(stay.end_date, stayTimes(stay, listing).checkOutTime, timeZone);
    if (checkOut > now) return false;
    const window = reviewWindow(stay, listing, timeZone, now);
    if (!window.open) {
      // Over for longer than reviews are taken (a server that was off): no late invitation.
      await skip();
      return false;
    }
    // Sent for the stay's approver (or the portal's owner), counted like any mail to others.
    const sender = await stayMailSender(this.db, stay, this.throttle);
    const outcome = await this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('stays')
        .set({ review_mailed_at: nowIso() })
        .where('portal_id', '=', stay.portal_id)
        .where('id', '=', stay.id)
        .where('review_mailed_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return { sent: false };
      const refusal = await trySendMail(
        trx,
        {
          portalId: stay.portal_id,
          template: 'stay_review',
          to: stay.guest_email,
          ...reviewInviteMail({
            guestName: stay.guest_name,
            listingTitle: listing.title,
            startDate: stay.start_date,
            endDate: stay.end_date,
            closesOn: window.closesOn,
            link: `${this.deps.publicUrl}${reviewPath(this.deps, stay)}`,
          }),
        },
        sender,
      );
      if (refusal?.status === 429) throw AppError.rateLimited(60); // not claimed: a later run
      if (refusal)
        await recordUnsentMail(trx, stay, unsentMailNotice(stay, 'the review request', refusal), 'review');
      return { sent: !refusal, refusal };
    });
    if (outcome.refusal) {
      this.log.warn(
        { stayId: stay.id, reason: outcome.refusal.message },
        'reviews: the guest was not invited',
      );
    }
    return outcome.sent;
  }
}

import crypto from 'node:crypto';
import type { LiveNotification } from '@latchkey/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import { emitDomainEvent } from '../../base/events/domain-events';
import './stay-events';
import type { StayRow } from '../../db/schema';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { insertNotificationOnce, listAdminEmails } from '../alerts/alerts.repository';
import { alertMail } from '../../base/mail/mail.templates';
import type { MailThrottle } from '../../base/mail/mail-throttle';
import { sendMail, trySendMail, type MailRefusal } from '../../base/mail/send-mail';
import { PeriodicJob } from '../../base/jobs/periodic-job';
import { describeStayAccess, expireFinishedAccess, loadStayFacts, overallLockState } from './stay-access';
import { recordUnsentMail, stayMailSender, unsentMailNotice } from './stay-mail';
import type { StayDeps } from '../rental/rental-context';
import { guestAccessMail } from './stays.service';
import { listFinishedAccess, listStaysAwaitingLocks } from './stays.repository';

/** Stays looked at per run, and finished access freed per run. */
const BATCH = 200;

export interface StayAccessMonitorOptions {
  /** How often the sweep runs (one server per period); 0: only when asked (tests). */
  everyMs: number;
  /** Alert the owner when a stay's access is not on every lock this long after it changed. */
  alertAfterMinutes: number;
  /** The live channel, for the owner's alert. */
  live: (portalId: string, notification: LiveNotification) => Promise<void>;
  /** Where the alert mail points. */
  alertsLink: string;
  /** Counts the guest's mail, sent for the stay's approver (app.mailThrottle). */
  throttle: MailThrottle;
}

/**
 * Follows stays whose access is on its way to the locks (docs/decisions.md "Rentals"): once every
 * lock has confirmed it (device protocol credentials/ack) the stay is ready and the guest's mail
 * goes out, once per change; a lock that refuses it, or has not confirmed it within
 * `alertAfterMinutes`, raises an alert to the portal's admins, once per change. It also frees the
 * slots of finished stays on their locks. Runs as a background job, one server per period; each
 * mail and alert is guarded by a conditional update, so a second run never repeats one.
 */
export class StayAccessMonitor {
  private readonly job: PeriodicJob | null;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly deps: StayDeps,
    private readonly options: StayAccessMonitorOptions,
  ) {
    this.job =
      options.everyMs > 0
        ? new PeriodicJob(db, log, {
            name: 'stays.access',
            everyMs: options.everyMs,
            run: ({ now }) => this.sweep(now),
          })
        : null;
  }

  start(): void {
    this.job?.start();
  }

  async stop(): Promise<void> {
    await this.job?.stop();
  }

  /** One pass: free finished access, then look at every stay waiting for its locks. */
  async sweep(now = new Date()): Promise<void> {
    const finished = await listFinishedAccess(this.db, now.toISOString(), BATCH);
    for (const portalId of new Set(finished.map((row) => row.portal_id))) {
      await changeAccess(this.db, (trx, touch) => expireFinishedAccess(trx, touch, portalId, now));
    }
    for (const stay of await listStaysAwaitingLocks(this.db, BATCH)) {
      try {
        await this.check(stay, now);
      } catch (error) {
        this.log.error({ err: error, stayId: stay.id }, 'stays: checking a stay against its locks failed');
      }
    }
  }

  /** A stay waiting for its locks: ready (mail the guest), refused or late (alert the owner). */
  async check(stay: StayRow, now = new Date()): Promise<void> {
    const access = (await describeStayAccess(this.db, stay.portal_id, [stay.id])).get(stay.id) ?? [];
    const state = overallLockState(access);
    const generation = stay.access_generation;
    if (state === 'ready') {
      const refused = await this.db.transaction().execute(async (trx): Promise<MailRefusal | null> => {
        await trx
          .updateTable('stays')
          .set({ access_state: 'ready', updated_at: nowIso() })
          .where('portal_id', '=', stay.portal_id)
          .where('id', '=', stay.id)
          .where('access_generation', '=', generation)
          .execute();
        // Once per generation, whichever run gets here first.
        const claimed = await trx
          .updateTable('stays')
          .set({ mailed_generation: generation })
          .where('portal_id', '=', stay.portal_id)
          .where('id', '=', stay.id)
          .where('access_generation', '=', generation)
          .where('mailed_generation', '<', generation)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) return null;
        await emitDomainEvent(trx, 'StayChanged', {
          stay: { ...stay, access_state: 'ready' },
          change: 'access_ready',
          now,
        });
        // An imported reservation's guest usually has no address here: the owner passes the code on.
        if (!stay.guest_email) return null;
        const mail = await guestAccessMail(trx, this.deps, stay, stay.mailed_generation > 0);
        if (!mail) return null;
        // Sent for the approver (or the owner), counted like any mail to others. A refused mail is
        // not sent and not retried: the stay is ready, and the host is told (below) to pass it on.
        const sender = await stayMailSender(trx, stay, this.options.throttle);
        const refusal = await trySendMail(
          trx,
          { portalId: stay.portal_id, template: 'stay_access', to: stay.guest_email, ...mail },
          sender,
        );
        if (refusal) return refusal;
        await trx
          .updateTable('stays')
          .set({ guest_mailed_at: nowIso() })
          .where('portal_id', '=', stay.portal_id)
          .where('id', '=', stay.id)
          .execute();
        return null;
      });
      this.log.info({ stayId: stay.id, generation }, 'stays: every lock confirmed the access');
      if (refused) await this.recordUnsent(stay, generation, refused);
      if (stay.access_state !== 'ready') this.deps.announce?.({ ...stay, access_state: 'ready' });
      return;
    }
    if (state === 'none') {
      await this.db
        .updateTable('stays')
        .set({ access_state: 'none', updated_at: nowIso() })
        .where('portal_id', '=', stay.portal_id)
        .where('id', '=', stay.id)
        .where('access_generation', '=', generation)
        .execute();
      this.deps.announce?.({ ...stay, access_state: 'none' });
      return;
    }
    const changedAt = toIso(stay.access_changed_at) ?? toIso(stay.updated_at);
    const late = now.getTime() - Date.parse(changedAt) > this.options.alertAfterMinutes * 60_000;
    if (state === 'rejected' && stay.access_state !== 'failed') {
      await this.db
        .updateTable('stays')
        .set({ access_state: 'failed', updated_at: nowIso() })
        .where('portal_id', '=', stay.portal_id)
        .where('id', '=', stay.id)
        .where('access_generation', '=', generation)
        .execute();
      this.deps.announce?.({ ...stay, access_state: 'failed' });
    }
    if (state !== 'rejected' && !late) return;
    const refused = access.flatMap((a) =>
      a.locks
        .filter((l) => l.state === 'rejected')
        .map((l) => `${l.name} refused ${a.name}'s code (${l.reason})`),
    );
    const waiting = [
      ...new Set(
        access.flatMap((a) =>
          a.locks.filter((l) => l.state !== 'confirmed' && l.state !== 'removed').map((l) => l.name),
        ),
      ),
    ];
    await this.alert(stay, generation, {
      title:
        state === 'rejected'
          ? `A lock refused ${stay.guest_name}'s access`
          : `${stay.guest_name}'s access is not on the locks yet`,
      message:
        state === 'rejected'
          ? `${refused.join('; ')}. Stay ${stay.start_date} to ${stay.end_date}. The guest has not been mailed.`
          : `Not confirmed after ${this.options.alertAfterMinutes} minutes by ${waiting.join(', ')} (offline?). Stay ${stay.start_date} to ${stay.end_date}. The guest is mailed once the locks confirm.`,
    });
  }

  /** The guest's access mail was refused: the host hears of it (alerts screen, live), once per change. */
  private async recordUnsent(stay: StayRow, generation: number, refusal: MailRefusal) {
    this.log.warn(
      { stayId: stay.id, generation, status: refusal.status, reason: refusal.message },
      'stays: the guest was not mailed their access',
    );
    const notice = unsentMailNotice(
      stay,
      stay.mailed_generation > 0 ? 'the changed access' : 'their access',
      refusal,
    );
    const stored = await recordUnsentMail(this.db, stay, notice, `stay_access:${generation}`);
    if (!stored) return;
    await this.options.live(stay.portal_id, {
      _id: stored.id,
      at: stored.at,
      kind: 'alert',
      title: stored.title,
      message: stored.message,
      deviceId: null,
    });
  }

  private async alert(stay: StayRow, generation: number, alert: { title: string; message: string }) {
    const id = crypto.randomUUID();
    const at = nowIso();
    const facts = await loadStayFacts(this.db, stay);
    const stored = await this.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('stays')
        .set({ alerted_generation: generation })
        .where('portal_id', '=', stay.portal_id)
        .where('id', '=', stay.id)
        .where('alerted_generation', '<', generation)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return false;
      const fresh = await insertNotificationOnce(trx, {
        id,
        portal_id: stay.portal_id,
        rule_id: null,
        kind: 'stay_access',
        device_id: facts.locks[0]?.id ?? null,
        user_id: null,
        title: alert.title,
        message: alert.message,
        once_key: `stay:${stay.id}:${generation}`,
        created_at: at,
      });
      if (!fresh) return false;
      const mail = alertMail({ ...alert, link: this.options.alertsLink });
      for (const to of await listAdminEmails(trx, stay.portal_id)) {
        await sendMail(trx, 'system', { portalId: stay.portal_id, template: 'alert', to, ...mail });
      }
      return true;
    });
    if (!stored) return;
    this.log.warn({ stayId: stay.id, generation }, `stays: ${alert.title}`);
    await this.options.live(stay.portal_id, {
      _id: id,
      at,
      kind: 'alert',
      title: alert.title,
      message: alert.message,
      deviceId: facts.locks[0]?.id ?? null,
    });
  }
}

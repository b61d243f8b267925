import crypto from 'node:crypto';
import { WEBHOOK_DISABLE_AFTER_MS, WEBHOOK_HEADERS } from '@latchkey/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '../../db/schema';
import { claimDue } from '../../base/jobs/claim-due';
import { appendAuditEntry } from '../../base/audit/audit.repository';
import { sendMail } from '../../base/mail/send-mail';
import { storeNotice } from '../alerts/notices';
import { endpointOfDelivery, insertAttempt } from './webhooks.repository';
import { postWebhook, WebhookFetchError } from './webhook-fetch';
import { signatureHeader } from './webhook-signature';
import { forgetPortalEndpoints, onDeliveriesWritten } from './webhook-events';

// The delivery worker (docs/decisions.md "Webhooks"): due deliveries are claimed with claimDue (one
// server takes each), POSTed signed, and each attempt logged. A failed attempt is tried again on
// the Svix schedule; after the last, the delivery is failed. Nothing here runs in a request or in
// a lock's handling: the rows were written in the announcer's transaction, the worker reads them.

/** The most of an answer read (the rest is not waited for); the log keeps its first bytes. */
export const WEBHOOK_MAX_RESPONSE_BYTES = 64 * 1024;
/** The answer's first bytes kept in the log. */
export const WEBHOOK_LOGGED_RESPONSE_BYTES = 1024;

export interface WebhookWorkerOptions {
  pollMs: number;
  timeoutMs: number;
  allowPrivateAddresses: boolean;
  /** When a delivery is tried again after its n-th failed attempt (index n; index 0: the first). */
  retryScheduleMs: readonly number[];
  /** Deliveries taken per round. */
  batch?: number;
}

/** After the n-th failed scheduled attempt (n ≥ 1): when to try again, or null when it is failed for good. */
export function nextAttemptDelay(schedule: readonly number[], attemptsMade: number): number | null {
  return attemptsMade < schedule.length ? schedule[attemptsMade]! : null;
}

/** The secrets that sign now: the current one, and the previous one until its time is up. */
export function signingSecrets(endpoint: WebhookEndpointRow, now: Date): string[] {
  const until = endpoint.previous_secret_until ? new Date(toIso(endpoint.previous_secret_until)) : null;
  return endpoint.previous_secret && until && until > now
    ? [endpoint.secret, endpoint.previous_secret]
    : [endpoint.secret];
}

export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly options: WebhookWorkerOptions,
  ) {
    this.unsubscribe = onDeliveriesWritten(() => this.wake());
  }

  start(): void {
    if (this.timer || this.options.pollMs <= 0) return;
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
  }

  /** Runs a round soon (deliveries were just written: their transaction commits first). */
  wake(): void {
    if (this.stopped || this.options.pollMs <= 0) return;
    setTimeout(() => void this.runDue(), 20).unref();
  }

  /** Delivers what is due now, round after round until nothing is; answers once done. */
  runDue(now?: () => Date): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          while (!this.stopped && (await this.round(now?.() ?? new Date())) > 0);
        } while (this.again && !this.stopped);
      } catch (error) {
        this.log.error({ err: error }, 'webhooks: a delivery round failed');
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    clearInterval(this.timer);
    await this.running;
  }

  /** One round: claims up to a batch of due deliveries and attempts each. Answers how many. */
  async round(now = new Date()): Promise<number> {
    const claimed = await claimDue(this.db, {
      table: 'webhook_deliveries',
      key: 'id',
      dueAt: 'next_attempt_at',
      where: (eb) => eb('status', '=', 'pending'),
      limit: this.options.batch ?? 10,
      // Longer than one attempt can take: a server that dies mid-attempt leaves it due again after.
      leaseMs: this.options.timeoutMs + 60_000,
      now,
    });
    await Promise.all(claimed.map((delivery) => this.attempt(delivery, now)));
    return claimed.length;
  }

  private async attempt(delivery: WebhookDeliveryRow, now: Date): Promise<void> {
    const endpoint = await endpointOfDelivery(this.db, delivery);
    if (!endpoint || Number(endpoint.enabled) !== 1) {
      // A disabled endpoint gets nothing: what was waiting for it is failed, without an attempt.
      await this.db
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', next_attempt_at: null, manual: 0, updated_at: now.toISOString() })
        .where('id', '=', delivery.id)
        .execute();
      return;
    }
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      [WEBHOOK_HEADERS.id]: delivery.message_id,
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      [WEBHOOK_HEADERS.signature]: signatureHeader(
        signingSecrets(endpoint, new Date()),
        delivery.message_id,
        timestamp,
        delivery.payload,
      ),
    };
    const started = Date.now();
    let statusCode: number | null = null;
    let response: string | null = null;
    let error: string | null = null;
    try {
      const answer = await postWebhook(endpoint.url, {
        headers,
        body: delivery.payload,
        timeoutMs: this.options.timeoutMs,
        maxBytes: WEBHOOK_MAX_RESPONSE_BYTES,
        allowPrivateAddresses: this.options.allowPrivateAddresses,
      });
      statusCode = answer.statusCode;
      response = answer.response.slice(0, WEBHOOK_LOGGED_RESPONSE_BYTES);
      if (answer.truncated)
        error = `The answer was longer than ${WEBHOOK_MAX_RESPONSE_BYTES / 1024} KiB: the rest was not read`;
      if (statusCode >= 300 && statusCode < 400)
        error = `Redirects are not followed (HTTP ${statusCode}${answer.truncated ? '' : ''}): give the final address`;
    } catch (caught) {
      error = caught instanceof WebhookFetchError ? caught.message : 'The attempt failed';
      if (!(caught instanceof WebhookFetchError)) this.log.warn({ err: caught }, 'webhooks: attempt failed');
    }
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const finished = new Date(now.getTime() + (Date.now() - started));
    const manual = Number(delivery.manual) === 1;
    const attemptsMade = delivery.attempt_count + (manual ? 0 : 1);
    const delay = ok ? null : nextAttemptDelay(this.options.retryScheduleMs, Math.max(attemptsMade, 1));
    await this.db.transaction().execute(async (trx) => {
      await insertAttempt(trx, {
        id: crypto.randomUUID(),
        delivery_id: delivery.id,
        endpoint_id: endpoint.id,
        portal_id: endpoint.portal_id,
        attempted_at: finished.toISOString(),
        status_code: statusCode,
        duration_ms: Date.now() - started,
        response,
        error,
        ok: ok ? 1 : 0,
        manual: manual ? 1 : 0,
      });
      await trx
        .updateTable('webhook_deliveries')
        .set({
          status: ok ? 'succeeded' : delay === null ? 'failed' : 'pending',
          attempt_count: attemptsMade,
          next_attempt_at: ok || delay === null ? null : new Date(finished.getTime() + delay).toISOString(),
          manual: 0,
          updated_at: finished.toISOString(),
        })
        .where('id', '=', delivery.id)
        .execute();
      if (!ok) await disableIfFailing(trx, endpoint, finished);
    });
  }
}

/**
 * Disables an endpoint whose every attempt for WEBHOOK_DISABLE_AFTER_MS failed (its first failure
 * since the last success is that old), and tells the portal's admins: a notice in their inbox and a
 * mail each. Answers whether it did.
 */
export async function disableIfFailing(
  db: Database,
  endpoint: WebhookEndpointRow,
  now: Date,
): Promise<boolean> {
  const lastOk = await db
    .selectFrom('webhook_attempts')
    .select((eb) => eb.fn.max('attempted_at').as('at'))
    .where('endpoint_id', '=', endpoint.id)
    .where('ok', '=', 1)
    .executeTakeFirst();
  let firstFailure = db
    .selectFrom('webhook_attempts')
    .select((eb) => eb.fn.min('attempted_at').as('at'))
    .where('endpoint_id', '=', endpoint.id)
    .where('ok', '=', 0);
  if (lastOk?.at) firstFailure = firstFailure.where('attempted_at', '>', lastOk.at);
  const first = (await firstFailure.executeTakeFirst())?.at;
  if (!first || new Date(toIso(first)).getTime() > now.getTime() - WEBHOOK_DISABLE_AFTER_MS) return false;
  const changed = await db
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: 'failing', updated_at: now.toISOString() })
    .where('id', '=', endpoint.id)
    .where('enabled', '=', 1)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) === 0) return false;
  forgetPortalEndpoints(endpoint.portal_id);
  const since = new Date(toIso(first)).toISOString().slice(0, 16).replace('T', ' ');
  const message = `Every delivery to ${endpoint.url} has failed since ${since} UTC, so it was disabled. Fix the receiver, then enable it again in Settings → Webhooks; its delivery log shows each attempt.`;
  await appendAuditEntry(db, endpoint.portal_id, {
    actorUserId: null,
    action: 'webhook.endpoint.disable',
    entityType: 'webhook_endpoint',
    entityId: endpoint.id,
    before: { enabled: true },
    after: { enabled: false, reason: 'failing', failingSince: since },
  });
  await storeNotice(db, endpoint.portal_id, {
    kind: 'webhook_failing',
    title: 'A webhook endpoint was disabled',
    message,
    subject: null,
    onceKey: `webhook_failing:${endpoint.id}:${now.toISOString()}`,
  });
  const admins = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.email'])
    .where('m.portal_id', '=', endpoint.portal_id)
    .where('m.role', '=', 'admin')
    .where('m.status', '=', 'active')
    .execute();
  for (const admin of admins) {
    await sendMail(db, 'system', {
      portalId: endpoint.portal_id,
      template: 'webhook-disabled',
      to: admin.email,
      subject: 'A webhook endpoint was disabled',
      text: message,
      html: `<p>${escapeHtml(message)}</p>`,
    });
  }
  return true;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Removes log entries (deliveries done and their attempts) older than the log keeps. */
export async function pruneWebhookLog(db: Database, before: Date): Promise<number> {
  const cutoff = before.toISOString();
  const old = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('created_at', '<', cutoff)
    .where('status', '!=', 'pending');
  await db.deleteFrom('webhook_attempts').where('delivery_id', 'in', old).execute();
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('created_at', '<', cutoff)
    .where('status', '!=', 'pending')
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { SandboxSessionRow, SandboxSubscriptionRow } from '../../db/schema';
import type {
  CreateCheckoutInput,
  PaymentProvider,
  ProviderCheckout,
  ProviderEvent,
} from './payment-provider';
import { signWebhook, verifyWebhook } from './webhook-signature';

// The built-in sandbox provider: the default, with no network. It keeps its own books (the
// sandbox_* tables, what Stripe keeps on its side), serves a hosted checkout page that takes the
// usual test cards (sandbox.routes.ts), and tells the server what happened only through webhooks
// signed like Stripe's, delivered to the same route Stripe's arrive at and retried until taken.

/** The test cards the hosted page knows (Stripe's numbers). */
export const SANDBOX_CARDS = {
  '4242424242424242': { outcome: 'succeeds', label: 'Succeeds' },
  '4000000000000002': { outcome: 'declined', label: 'Declined' },
  '4000002760003184': { outcome: 'confirm', label: 'Needs a second confirmation step' },
  '4000000000000341': { outcome: 'fails_later', label: 'Succeeds now, then fails when the plan renews' },
} as const;
export type CardOutcome = (typeof SANDBOX_CARDS)[keyof typeof SANDBOX_CARDS]['outcome'];

/** How long a past-due subscription is retried before the sandbox cancels it (Stripe's dunning). */
export const SANDBOX_DUNNING_DAYS = 3;
/** Delivery attempts before the sandbox gives a webhook up (Stripe retries for three days). */
const MAX_DELIVERY_ATTEMPTS = 12;

export type SandboxDelivery = (body: string, signatureHeader: string) => Promise<number>;

const randomId = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('base64url')}`;
const seconds = (value: Date | string) => Math.floor(new Date(value).getTime() / 1000);

function addMonth(from: Date): Date {
  const next = new Date(from);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

/** Set while a webhook is being delivered (and handled, in the same process). */
const insideDelivery = new AsyncLocalStorage<boolean>();

/** A checkout's one payment intent (every attempt of its buyer is on it, as with Stripe). */
const paymentIntentOf = (session: { id: string }) => session.id.replace(/^cs_/, 'pi_');

/** Digits only; a card number that passes the Luhn check. */
export function normalizeCardNumber(value: string): string | null {
  const digits = value.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) return null;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0 ? digits : null;
}

/** What became of a payment attempt on the hosted page. */
export type PayResult =
  | { kind: 'paid'; redirect: string }
  | { kind: 'declined'; message: string }
  | { kind: 'confirm' }
  | { kind: 'closed'; redirect: string };

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  readonly reportsPageOpened = true;
  private delivering: Promise<void> | null = null;
  /** Events made in one instant keep their order: each is at least 1 ms after the previous. */
  private lastEventMs = 0;

  constructor(
    private readonly db: Database,
    private readonly options: {
      /** Where the hosted pages are: PUBLIC_URL + the API prefix. */
      pagesUrl: string;
      webhookSecret: string;
      /** Sends one signed webhook to the server; answers the HTTP status. */
      deliver: SandboxDelivery;
      log: { warn: (object: object, message: string) => void };
    },
  ) {}

  async createCheckout(input: CreateCheckoutInput): Promise<ProviderCheckout> {
    const existing = await this.db
      .selectFrom('sandbox_sessions')
      .select('id')
      .where('idempotency_key', '=', `checkout-${input.checkoutId}`)
      .executeTakeFirst();
    const id = existing?.id ?? randomId('cs_test_sbx');
    if (!existing) {
      const subtotal = input.lines.reduce((sum, line) => sum + line.unitAmount * line.quantity, 0);
      await this.db
        .insertInto('sandbox_sessions')
        .values({
          id,
          mode: input.mode,
          status: 'open',
          payment_status: 'unpaid',
          customer_id: input.customerId,
          customer_email: input.customerEmail,
          subscription_id: null,
          client_reference_id: input.checkoutId,
          line_items_json: JSON.stringify(input.lines),
          shipping_json: input.shipping ? JSON.stringify(input.shipping) : null,
          amount_total: subtotal + (input.shipping?.amount ?? 0),
          currency: input.currency.toLowerCase(),
          metadata_json: JSON.stringify(input.metadata),
          subscription_metadata_json: input.mode === 'subscription' ? JSON.stringify(input.metadata) : null,
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
          idempotency_key: `checkout-${input.checkoutId}`,
          expires_at: input.expiresAt.toISOString(),
          created_at: nowIso(),
        })
        .execute();
    }
    return { sessionId: id, url: `${this.options.pagesUrl}/sandbox-pay/${id}` };
  }

  async expireCheckout(sessionId: string): Promise<'expired' | 'complete'> {
    const status = await this.db.transaction().execute(async (trx) => {
      const session = await this.findSession(trx, sessionId);
      if (!session) return 'expired' as const;
      if (session.status === 'complete') return 'complete' as const;
      if (session.status === 'open') {
        await trx
          .updateTable('sandbox_sessions')
          .set({ status: 'expired', awaiting_confirmation: 0 })
          .where('id', '=', sessionId)
          .where('status', '=', 'open')
          .execute();
        await this.emit(
          trx,
          'checkout.session.expired',
          this.sessionObject({ ...session, status: 'expired' }),
        );
      }
      return 'expired' as const;
    });
    await this.deliverDue();
    return status;
  }

  async changeSubscriptionPlan(
    subscriptionId: string,
    change: { unitAmount: number; currency: string; metadata: Record<string, string> },
  ): Promise<void> {
    await this.updateSubscription(subscriptionId, (row) => ({
      unit_amount: change.unitAmount,
      currency: change.currency.toLowerCase(),
      metadata_json: JSON.stringify({ ...JSON.parse(row.metadata_json), ...change.metadata }),
    }));
  }

  async setSubscriptionQuantity(subscriptionId: string, quantity: number): Promise<void> {
    // Charged at the next renewal; the sandbox does not invoice prorations in between.
    await this.updateSubscription(subscriptionId, (row) =>
      row.quantity === quantity || row.status === 'canceled' ? null : { quantity },
    );
  }

  async cancelSubscriptionNow(subscriptionId: string): Promise<void> {
    await this.updateSubscription(
      subscriptionId,
      (row) => (row.status === 'canceled' ? null : { status: 'canceled', canceled_at: nowIso() }),
      'deleted',
    );
  }

  async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<void> {
    await this.updateSubscription(subscriptionId, (row) => {
      if (row.status === 'canceled') throw new Error('The subscription has ended');
      return { cancel_at_period_end: cancel ? 1 : 0, canceled_at: cancel ? nowIso() : null };
    });
  }

  async cardPortalUrl(customerId: string, returnUrl: string): Promise<string> {
    return `${this.options.pagesUrl}/sandbox-pay/billing/${this.billingToken(customerId, returnUrl)}`;
  }

  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProviderEvent {
    return verifyWebhook(rawBody, signatureHeader, this.options.webhookSecret);
  }

  // --- The hosted pages (sandbox.routes.ts) ---

  findSession(db: Database, id: string): Promise<SandboxSessionRow | undefined> {
    return db.selectFrom('sandbox_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A card entered on the checkout page. */
  async pay(sessionId: string, card: { number: string; email: string }): Promise<PayResult> {
    const result = await this.db.transaction().execute(async (trx): Promise<PayResult> => {
      const session = await this.findSession(trx, sessionId);
      if (!session) return { kind: 'declined', message: 'This checkout does not exist.' };
      const closed = this.closedResult(session);
      if (closed) return closed;
      const known = SANDBOX_CARDS[card.number as keyof typeof SANDBOX_CARDS];
      if (!known) {
        await this.emitPaymentFailed(
          trx,
          session,
          'Your card was declined: this sandbox takes test cards only.',
        );
        return {
          kind: 'declined',
          message: 'Your card was declined. This is a sandbox: use one of the test cards below.',
        };
      }
      if (known.outcome === 'declined') {
        await this.emitPaymentFailed(trx, session, 'Your card was declined.');
        return { kind: 'declined', message: 'Your card was declined.' };
      }
      if (known.outcome === 'confirm') {
        await trx
          .updateTable('sandbox_sessions')
          .set({ awaiting_confirmation: 1, customer_email: session.customer_email ?? card.email })
          .where('id', '=', sessionId)
          .execute();
        return { kind: 'confirm' };
      }
      return this.complete(trx, session, card.number.slice(-4), card.email);
    });
    await this.deliverDue();
    return result;
  }

  /** The second confirmation step (3-D Secure) answered: completed or failed. */
  async confirm(sessionId: string, approve: boolean): Promise<PayResult> {
    const result = await this.db.transaction().execute(async (trx): Promise<PayResult> => {
      const session = await this.findSession(trx, sessionId);
      if (!session) return { kind: 'declined', message: 'This checkout does not exist.' };
      const closed = this.closedResult(session);
      if (closed) return closed;
      if (!session.awaiting_confirmation) {
        return { kind: 'declined', message: 'There is no payment waiting for confirmation.' };
      }
      await trx
        .updateTable('sandbox_sessions')
        .set({ awaiting_confirmation: 0 })
        .where('id', '=', sessionId)
        .execute();
      if (!approve) {
        await this.emitPaymentFailed(trx, session, 'The payment was not confirmed.');
        return { kind: 'declined', message: 'The payment was not confirmed, so nothing was charged.' };
      }
      return this.complete(trx, session, '3184', session.customer_email ?? '');
    });
    await this.deliverDue();
    return result;
  }

  /** The customer whose card the billing page changes, if its link is genuine. */
  async billingCustomer(
    token: string,
  ): Promise<{ customerId: string; returnUrl: string; last4: string | null } | null> {
    const opened = this.openBillingToken(token);
    if (!opened) return null;
    const customer = await this.db
      .selectFrom('sandbox_customers')
      .selectAll()
      .where('id', '=', opened.customerId)
      .executeTakeFirst();
    return customer ? { ...opened, last4: customer.card_last4 } : null;
  }

  /** A new card for a customer (the billing page); a past-due subscription is charged again. */
  async updateCard(customerId: string, number: string): Promise<void> {
    await this.db
      .updateTable('sandbox_customers')
      .set({ card_last4: number.slice(-4) })
      .where('id', '=', customerId)
      .execute();
    await this.renewDue(new Date(), customerId);
  }

  // --- Time passing: renewals and dunning, and webhook delivery ---

  /**
   * Renews subscriptions whose period has ended (charging the customer's card), ends those that
   * were to cancel at period end, retries past-due ones and cancels those past their dunning days.
   * `customerId`: only that customer's (after a card change), retried at once.
   */
  async renewDue(now = new Date(), customerId?: string): Promise<void> {
    let query = this.db
      .selectFrom('sandbox_subscriptions')
      .selectAll()
      .where('status', 'in', ['active', 'past_due']);
    // A period that ended, or a past-due one (retried on each sweep until its dunning days are over).
    query = customerId
      ? query.where('customer_id', '=', customerId)
      : query.where((eb) =>
          eb.or([eb('current_period_end', '<=', now.toISOString()), eb('status', '=', 'past_due')]),
        );
    const due = await query.execute();
    for (const subscription of due) {
      await this.db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('sandbox_subscriptions')
          .selectAll()
          .where('id', '=', subscription.id)
          .executeTakeFirst();
        if (!row || (row.status !== 'active' && row.status !== 'past_due')) return;
        const periodEnded = new Date(toIso(row.current_period_end)).getTime() <= now.getTime();
        if (row.status === 'active' && !periodEnded) return;
        if (row.status === 'active' && row.cancel_at_period_end) {
          await this.saveSubscription(
            trx,
            row,
            { status: 'canceled', canceled_at: now.toISOString() },
            'deleted',
          );
          return;
        }
        const customer = await trx
          .selectFrom('sandbox_customers')
          .selectAll()
          .where('id', '=', row.customer_id)
          .executeTakeFirst();
        const cardFails = customer?.card_last4 === '0341';
        let periodStart = new Date(toIso(row.current_period_start));
        let periodEnd = new Date(toIso(row.current_period_end));
        if (row.status === 'active') {
          // A new period starts and its invoice is charged.
          periodStart = periodEnd;
          periodEnd = addMonth(periodEnd);
        }
        const period = {
          current_period_start: periodStart.toISOString(),
          current_period_end: periodEnd.toISOString(),
        };
        if (!cardFails) {
          const next = await this.saveSubscription(trx, row, { ...period, status: 'active' }, 'updated');
          await this.emit(trx, 'invoice.paid', this.invoiceObject(next, 'paid'));
          return;
        }
        const dunningOver =
          row.status === 'past_due' &&
          now.getTime() > periodStart.getTime() + SANDBOX_DUNNING_DAYS * 86_400_000;
        if (dunningOver) {
          await this.saveSubscription(
            trx,
            row,
            { status: 'canceled', canceled_at: now.toISOString() },
            'deleted',
          );
          return;
        }
        const next = await this.saveSubscription(trx, row, { ...period, status: 'past_due' }, 'updated');
        await this.emit(trx, 'invoice.payment_failed', this.invoiceObject(next, 'open'));
      });
    }
    await this.deliverDue();
  }

  /** Sends the webhooks that are due, oldest first; a failed one waits longer each time. */
  deliverDue(): Promise<void> {
    // One delivery run at a time; a call during a run waits for it and then runs again.
    const run = async () => {
      const due = await this.db
        .selectFrom('sandbox_events')
        .selectAll()
        .where('delivered_at', 'is', null)
        .where('next_attempt_at', '<=', nowIso())
        .where('attempts', '<', MAX_DELIVERY_ATTEMPTS)
        .orderBy('created_at')
        .orderBy('id')
        .limit(100)
        .execute();
      for (const event of due) {
        let error: string | null = null;
        try {
          const status = await insideDelivery.run(true, () =>
            this.options.deliver(
              event.payload_json,
              signWebhook(event.payload_json, this.options.webhookSecret),
            ),
          );
          if (status < 200 || status >= 300) error = `the webhook answered ${status}`;
        } catch (cause) {
          error = cause instanceof Error ? cause.message : String(cause);
        }
        const attempts = event.attempts + 1;
        await this.db
          .updateTable('sandbox_events')
          .set(
            error
              ? {
                  attempts,
                  last_error: error.slice(0, 500),
                  next_attempt_at: new Date(
                    Date.now() + Math.min(2 ** attempts * 10_000, 3_600_000),
                  ).toISOString(),
                }
              : { attempts, delivered_at: nowIso(), last_error: null },
          )
          .where('id', '=', event.id)
          .execute();
        if (error)
          this.options.log.warn({ eventId: event.id, type: event.type, error }, 'sandbox webhook not taken');
      }
    };
    const previous = this.delivering ?? Promise.resolve();
    const next = previous.then(run, run).finally(() => {
      if (this.delivering === next) this.delivering = null;
    });
    this.delivering = next;
    return next;
  }

  // --- Internals ---

  private closedResult(session: SandboxSessionRow): PayResult | null {
    if (session.status === 'complete') return { kind: 'closed', redirect: session.success_url };
    if (session.status === 'expired' || new Date(toIso(session.expires_at)).getTime() < Date.now()) {
      return { kind: 'closed', redirect: session.cancel_url };
    }
    return null;
  }

  /** The checkout is paid: a customer, for subscriptions a subscription, and the events Stripe sends. */
  private async complete(
    trx: Database,
    session: SandboxSessionRow,
    last4: string,
    email: string,
  ): Promise<PayResult> {
    const now = new Date();
    let customerId = session.customer_id;
    if (customerId) {
      await trx
        .updateTable('sandbox_customers')
        .set({ card_last4: last4 })
        .where('id', '=', customerId)
        .execute();
    } else {
      customerId = randomId('cus_sbx');
      await trx
        .insertInto('sandbox_customers')
        .values({
          id: customerId,
          email: session.customer_email ?? email,
          card_last4: last4,
          created_at: now.toISOString(),
        })
        .execute();
    }
    let subscriptionId: string | null = null;
    if (session.mode === 'subscription') {
      const line = (JSON.parse(session.line_items_json) as { unitAmount: number; quantity: number }[])[0]!;
      subscriptionId = randomId('sub_sbx');
      const row = {
        id: subscriptionId,
        customer_id: customerId,
        status: 'active',
        unit_amount: line.unitAmount,
        currency: session.currency,
        quantity: line.quantity,
        current_period_start: now.toISOString(),
        current_period_end: addMonth(now).toISOString(),
        cancel_at_period_end: 0,
        canceled_at: null,
        metadata_json: session.subscription_metadata_json ?? '{}',
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      } satisfies SandboxSubscriptionRow;
      await trx.insertInto('sandbox_subscriptions').values(row).execute();
      await this.emit(trx, 'customer.subscription.created', this.subscriptionObject(row));
      await this.emit(trx, 'invoice.paid', this.invoiceObject(row, 'paid'));
    }
    const completed: SandboxSessionRow = {
      ...session,
      status: 'complete',
      payment_status: 'paid',
      customer_id: customerId,
      customer_email: session.customer_email ?? email,
      subscription_id: subscriptionId,
      awaiting_confirmation: 0,
    };
    await trx
      .updateTable('sandbox_sessions')
      .set({
        status: 'complete',
        payment_status: 'paid',
        customer_id: customerId,
        customer_email: completed.customer_email,
        subscription_id: subscriptionId,
        awaiting_confirmation: 0,
      })
      .where('id', '=', session.id)
      .where('status', '=', 'open')
      .execute();
    await this.emit(trx, 'checkout.session.completed', this.sessionObject(completed));
    return { kind: 'paid', redirect: session.success_url };
  }

  private async emitPaymentFailed(trx: Database, session: SandboxSessionRow, message: string) {
    await this.emit(trx, 'payment_intent.payment_failed', {
      id: paymentIntentOf(session),
      object: 'payment_intent',
      amount: session.amount_total,
      currency: session.currency,
      status: 'requires_payment_method',
      metadata: JSON.parse(session.metadata_json) as Record<string, string>,
      last_payment_error: {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message,
      },
    });
  }

  /** `change` answers null for nothing to change (no event then). */
  private async updateSubscription(
    subscriptionId: string,
    change: (row: SandboxSubscriptionRow) => Partial<SandboxSubscriptionRow> | null,
    event: 'updated' | 'deleted' = 'updated',
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('sandbox_subscriptions')
        .selectAll()
        .where('id', '=', subscriptionId)
        .executeTakeFirst();
      if (!row) throw new Error(`No such subscription: ${subscriptionId}`);
      const patch = change(row);
      if (patch) await this.saveSubscription(trx, row, patch, event);
    });
    if (insideDelivery.getStore()) {
      // Asked while one of our webhooks is being handled (a replaced subscription is ended then):
      // waiting here for delivery would wait for that very delivery. The run after it sends these.
      void this.deliverDue().catch((error: unknown) =>
        this.options.log.warn({ err: error }, 'sandbox webhooks not delivered yet'),
      );
      return;
    }
    await this.deliverDue();
  }

  private async saveSubscription(
    trx: Database,
    row: SandboxSubscriptionRow,
    change: Partial<SandboxSubscriptionRow>,
    event: 'updated' | 'deleted',
  ): Promise<SandboxSubscriptionRow> {
    const updatedAt = nowIso();
    const next = { ...row, ...change, updated_at: updatedAt };
    await trx
      .updateTable('sandbox_subscriptions')
      .set({
        status: next.status,
        unit_amount: next.unit_amount,
        currency: next.currency,
        quantity: next.quantity,
        current_period_start: toIso(next.current_period_start),
        current_period_end: toIso(next.current_period_end),
        cancel_at_period_end: next.cancel_at_period_end,
        canceled_at: toIso(next.canceled_at),
        metadata_json: next.metadata_json,
        updated_at: updatedAt,
      })
      .where('id', '=', row.id)
      .execute();
    await this.emit(trx, `customer.subscription.${event}`, this.subscriptionObject(next));
    return next;
  }

  private async emit(trx: Database, type: string, object: Record<string, unknown>): Promise<void> {
    const id = randomId('evt_sbx');
    this.lastEventMs = Math.max(Date.now(), this.lastEventMs + 1);
    const created = new Date(this.lastEventMs);
    const payload = {
      id,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(created.getTime() / 1000),
      livemode: false,
      pending_webhooks: 1,
      type,
      data: { object },
    };
    await trx
      .insertInto('sandbox_events')
      .values({
        id,
        type,
        payload_json: JSON.stringify(payload),
        created_at: created.toISOString(),
        // Due now, not at `created`: several events made within one millisecond get created times
        // ahead of the clock (to keep their order), and would otherwise wait for the next sweep.
        next_attempt_at: nowIso(),
      })
      .execute();
  }

  private sessionObject(session: SandboxSessionRow): Record<string, unknown> {
    return {
      id: session.id,
      object: 'checkout.session',
      mode: session.mode,
      status: session.status,
      payment_status: session.payment_status,
      client_reference_id: session.client_reference_id,
      customer: session.customer_id,
      customer_email: session.customer_email,
      subscription: session.subscription_id,
      payment_intent:
        session.mode === 'payment' && session.status === 'complete' ? paymentIntentOf(session) : null,
      amount_total: session.amount_total,
      currency: session.currency,
      metadata: JSON.parse(session.metadata_json) as Record<string, string>,
      created: seconds(session.created_at),
      expires_at: seconds(session.expires_at),
      success_url: session.success_url,
      cancel_url: session.cancel_url,
      url: session.status === 'open' ? `${this.options.pagesUrl}/sandbox-pay/${session.id}` : null,
    };
  }

  private subscriptionObject(row: SandboxSubscriptionRow): Record<string, unknown> {
    return {
      id: row.id,
      object: 'subscription',
      customer: row.customer_id,
      status: row.status,
      cancel_at_period_end: row.cancel_at_period_end === 1,
      canceled_at: row.canceled_at ? seconds(row.canceled_at) : null,
      created: seconds(row.created_at),
      currency: row.currency,
      metadata: JSON.parse(row.metadata_json) as Record<string, string>,
      items: {
        object: 'list',
        data: [
          {
            id: `si_${row.id.slice(8)}`,
            object: 'subscription_item',
            quantity: row.quantity,
            current_period_start: seconds(row.current_period_start),
            current_period_end: seconds(row.current_period_end),
            price: {
              id: `price_sbx_${row.unit_amount}`,
              object: 'price',
              currency: row.currency,
              unit_amount: row.unit_amount,
              recurring: { interval: 'month', interval_count: 1 },
              product: 'prod_sbx_latchkey_plan',
            },
          },
        ],
      },
    };
  }

  private invoiceObject(row: SandboxSubscriptionRow, status: 'paid' | 'open'): Record<string, unknown> {
    const amount = row.unit_amount * row.quantity;
    return {
      id: randomId('in_sbx'),
      object: 'invoice',
      customer: row.customer_id,
      status,
      currency: row.currency,
      amount_due: amount,
      amount_paid: status === 'paid' ? amount : 0,
      billing_reason: 'subscription_cycle',
      lines: {
        object: 'list',
        data: [
          {
            object: 'line_item',
            amount,
            quantity: row.quantity,
            period: { start: seconds(row.current_period_start), end: seconds(row.current_period_end) },
          },
        ],
      },
      parent: {
        type: 'subscription_details',
        subscription_details: {
          subscription: row.id,
          metadata: JSON.parse(row.metadata_json) as Record<string, string>,
        },
      },
    };
  }

  private billingToken(customerId: string, returnUrl: string): string {
    const body = Buffer.from(
      JSON.stringify({ c: customerId, r: returnUrl, e: Date.now() + 30 * 60_000 }),
    ).toString('base64url');
    const mac = crypto
      .createHmac('sha256', this.options.webhookSecret)
      .update(`billing.${body}`)
      .digest('base64url');
    return `${body}.${mac}`;
  }

  private openBillingToken(token: string): { customerId: string; returnUrl: string } | null {
    const [body, mac] = token.split('.');
    if (!body || !mac) return null;
    const expected = crypto
      .createHmac('sha256', this.options.webhookSecret)
      .update(`billing.${body}`)
      .digest();
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
    try {
      const value = JSON.parse(Buffer.from(body, 'base64url').toString()) as {
        c: string;
        r: string;
        e: number;
      };
      if (typeof value.c !== 'string' || typeof value.r !== 'string' || value.e < Date.now()) return null;
      return { customerId: value.c, returnUrl: value.r };
    } catch {
      return null;
    }
  }
}

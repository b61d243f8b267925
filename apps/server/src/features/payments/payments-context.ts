import type { CheckoutKind } from '@latchkey/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import type { CheckoutRow } from '../../db/schema';
import type { PaymentProvider } from './payment-provider';
import type { InvoiceFacts, SessionFacts, SubscriptionFacts } from './provider-objects';
import type { SandboxProvider } from './sandbox-provider';

/** What the money features need: the provider in use, where people reach the portal, the log. */
export interface Payments {
  provider: PaymentProvider;
  /** The built-in sandbox, when it is the provider (its hosted pages and clock). */
  sandbox: SandboxProvider | null;
  /** PUBLIC_URL: success, cancel and mail links. */
  publicUrl: string;
  /** How long a checkout (and the stock it holds) stays open. */
  checkoutExpiryMinutes: number;
  log: FastifyBaseLogger;
  /** What the features that sell through payments do when the provider says something happened. */
  handlers: PaymentHandlers;
}

/** What a webhook handler is told about the event it handles. */
export interface EventContext {
  payments: Payments;
  eventId: string;
  /** When the provider made the event. */
  at: Date;
}

/**
 * What the feature that sells one kind of checkout does with its outcome. Both run inside the
 * transaction that records the outcome: a handler that throws rolls it back (a webhook answers 500
 * and the provider retries).
 */
export interface CheckoutKindHandler {
  /** The provider took the money for the checkout (also one already ended here: paid wins). */
  paid(trx: Database, event: EventContext, checkout: CheckoutRow, session: SessionFacts): Promise<void>;
  /** An open checkout ended unpaid (turned back, expired, failed): release what it held. */
  ended?(trx: Database, checkout: CheckoutRow, status: 'canceled' | 'expired'): Promise<void>;
}

/** What became of a checkout's payment, as the provider said it. */
export interface CheckoutOutcome {
  paid: boolean;
  /** In the currency's minor unit; the checkout's own when the provider did not say. */
  amountMinor: number;
  currency: string;
}

/** The provider's other news, by name, and what each listener is given. */
export interface PaymentEvents {
  /** customer.subscription.created/updated/deleted, inside the webhook's transaction. */
  SubscriptionChanged: [trx: Database, event: EventContext, subscription: SubscriptionFacts];
  /**
   * A checkout was paid (the first time it is recorded complete), or its payment failed (a delayed
   * debit that failed, a declined card), inside the webhook's transaction.
   */
  CheckoutSettled: [trx: Database, event: EventContext, checkout: CheckoutRow, outcome: CheckoutOutcome];
  /** invoice.paid / invoice.payment_failed, inside the webhook's transaction. */
  InvoiceSettled: [trx: Database, event: EventContext, invoice: InvoiceFacts, paid: boolean];
  /**
   * A new webhook event was handled and committed (the provider may be called now); `type` is the
   * event's type. What a listener cannot do now it leaves for the sweep.
   */
  WebhookCommitted: [db: Database, payments: Payments, type: string];
  /** The payments sweep, after overdue checkouts were ended: upkeep that retries what failed. */
  Sweep: [db: Database, payments: Payments];
}

type Listener<Args extends unknown[]> = (...args: Args) => Promise<void>;

/**
 * The payments feature is the lowest commerce layer: it imports neither the shop nor the
 * subscriptions. They register here when the app starts (shop.plugin.ts, subscriptions.plugin.ts),
 * and the webhook and the sweep call what was registered: a completed checkout by its kind, other
 * provider events by name (docs/ARCHITECTURE.md, "One-way imports").
 */
export class PaymentHandlers {
  private readonly kinds = new Map<CheckoutKind, CheckoutKindHandler>();
  private readonly listeners: { [E in keyof PaymentEvents]?: Listener<PaymentEvents[E]>[] } = {};

  /** The one handler of a checkout kind; a second registration is a wiring mistake. */
  handleCheckouts(kinds: CheckoutKind | CheckoutKind[], handler: CheckoutKindHandler): void {
    for (const kind of typeof kinds === 'string' ? [kinds] : kinds) {
      if (this.kinds.has(kind)) throw new Error(`Checkouts of kind ${kind} already have a handler`);
      this.kinds.set(kind, handler);
    }
  }

  /** The handler of a checkout's kind: a checkout no feature registered for cannot be settled. */
  forKind(kind: CheckoutKind): CheckoutKindHandler {
    const handler = this.kinds.get(kind);
    if (!handler) throw new Error(`No handler for checkouts of kind ${kind}`);
    return handler;
  }

  on<E extends keyof PaymentEvents>(event: E, listener: Listener<PaymentEvents[E]>): void {
    ((this.listeners[event] ??= []) as Listener<PaymentEvents[E]>[]).push(listener);
  }

  /** Calls the event's listeners one after the other, in the order they registered; a throw stops it. */
  async emit<E extends keyof PaymentEvents>(event: E, ...args: PaymentEvents[E]): Promise<void> {
    for (const listener of (this.listeners[event] ?? []) as Listener<PaymentEvents[E]>[]) {
      await listener(...args);
    }
  }
}

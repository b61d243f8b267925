import type { PaymentProviderName } from '@latchkey/shared';

// One interface for every payment provider: the built-in sandbox (default) and Stripe. Events are
// in Stripe's shape (id, type, created, data.object) whichever provider sends them, so one handler
// (payment-events.service.ts) serves both; the sandbox sends exactly what Stripe would.

/** One line of a checkout: a name, a unit amount in minor units and a quantity. */
export interface CheckoutLine {
  name: string;
  description?: string;
  unitAmount: number;
  quantity: number;
}

export interface CreateCheckoutInput {
  /** Subscription: the lines recur monthly; payment: paid once. */
  mode: 'subscription' | 'payment';
  /** Our checkout id: the session's client_reference_id and its idempotency key. */
  checkoutId: string;
  lines: CheckoutLine[];
  /** ISO 4217, upper case (Stripe gets it lower case). */
  currency: string;
  customerEmail: string | null;
  /** An existing customer at the provider (a portal that paid before). */
  customerId: string | null;
  shipping: { name: string; amount: number; minDays: number; maxDays: number } | null;
  /** Copied to the session and (subscription mode) to the subscription. */
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
}

export interface ProviderCheckout {
  sessionId: string;
  /** The hosted checkout page. */
  url: string;
}

/** A webhook event, in Stripe's shape. */
export interface ProviderEvent {
  id: string;
  type: string;
  /** Seconds since the epoch, when the provider made it. */
  created: number;
  data: { object: Record<string, unknown> };
}

/** A webhook whose signature does not verify (or that is no event at all): a 400, nothing changes. */
export class WebhookSignatureError extends Error {}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /**
   * Whether the server learns when a checkout's hosted page is opened (the sandbox's pages are
   * served here; Stripe's are not): only then is stock held briefly until it is (stock-holds.ts).
   */
  readonly reportsPageOpened: boolean;
  createCheckout(input: CreateCheckoutInput): Promise<ProviderCheckout>;
  /**
   * Ends an open checkout so it can no longer be paid; answers what it now is. `complete`: it was
   * paid meanwhile (its webhook is on the way), so what it holds must not be released.
   */
  expireCheckout(sessionId: string): Promise<'expired' | 'complete'>;
  /** Moves a running subscription to another price per lock (the plan in its metadata). */
  changeSubscriptionPlan(
    subscriptionId: string,
    change: {
      unitAmount: number;
      currency: string;
      metadata: Record<string, string>;
      idempotencyKey: string;
    },
  ): Promise<void>;
  /**
   * Sets a running subscription's quantity (its locks), prorated as the provider does: Stripe
   * charges or credits the rest of the period on the next invoice. The same quantity changes nothing.
   */
  setSubscriptionQuantity(subscriptionId: string, quantity: number, idempotencyKey: string): Promise<void>;
  /**
   * Ends a subscription now (a newer one of the same portal replaced it), the unused time prorated
   * as the provider does (Stripe: credited to the customer). One already ended stays so.
   */
  cancelSubscriptionNow(subscriptionId: string, idempotencyKey: string): Promise<void>;
  /** Cancels at the end of the period (`true`), or takes a pending cancellation back (`false`). */
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean, idempotencyKey: string): Promise<void>;
  /** The provider's page where a customer changes their card. */
  cardPortalUrl(customerId: string, returnUrl: string, idempotencyKey: string): Promise<string>;
  /** Verifies a webhook's signature over the raw body and answers its event. */
  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProviderEvent;
}

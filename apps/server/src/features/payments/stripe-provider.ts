import Stripe from 'stripe';
import type {
  CreateCheckoutInput,
  PaymentProvider,
  ProviderCheckout,
  ProviderEvent,
} from './payment-provider';
import { WebhookSignatureError } from './payment-provider';

// Stripe, through the official SDK (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET): Checkout Sessions
// (subscription mode for plans, payment mode for shop orders and prepaid periods), the customer
// portal for card changes, webhooks verified with constructEvent. Every create carries an
// idempotency key, so a retried request never makes a second session or portal link. Card data
// stays on Stripe's pages.

/** The product every plan's price hangs off; the plan itself is in the subscription's metadata. */
const PLAN_PRODUCT_NAME = 'Latchkey plan (per lock per month)';

export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  /** Stripe says nothing when its page is opened: an order holds for the session's life (30 min at least). */
  readonly reportsPageOpened = false;
  private readonly stripe: Stripe;

  constructor(options: { secretKey: string; webhookSecret: string; apiUrl?: string }) {
    const api = options.apiUrl ? new URL(options.apiUrl) : null;
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: 'Latchkey', url: 'https://github.com/latchkey' },
      ...(api && {
        host: api.hostname,
        port: api.port || (api.protocol === 'https:' ? 443 : 80),
        protocol: api.protocol === 'https:' ? 'https' : 'http',
      }),
    });
    this.webhookSecret = options.webhookSecret;
  }

  private readonly webhookSecret: string;

  async createCheckout(input: CreateCheckoutInput): Promise<ProviderCheckout> {
    const currency = input.currency.toLowerCase();
    const recurring = input.mode === 'subscription' ? { recurring: { interval: 'month' as const } } : {};
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: input.mode,
      client_reference_id: input.checkoutId,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      expires_at: Math.floor(input.expiresAt.getTime() / 1000),
      metadata: input.metadata,
      line_items: input.lines.map((line) => ({
        quantity: line.quantity,
        price_data: {
          currency,
          unit_amount: line.unitAmount,
          product_data: {
            name: input.mode === 'subscription' ? PLAN_PRODUCT_NAME : line.name,
            ...(line.description && { description: line.description }),
          },
          ...recurring,
        },
      })),
      ...(input.customerId
        ? { customer: input.customerId }
        : input.customerEmail
          ? { customer_email: input.customerEmail }
          : {}),
      ...(input.mode === 'subscription'
        ? { subscription_data: { metadata: input.metadata } }
        : { payment_intent_data: { metadata: input.metadata } }),
      ...(input.shipping && {
        shipping_options: [
          {
            shipping_rate_data: {
              type: 'fixed_amount',
              display_name: input.shipping.name,
              fixed_amount: { amount: input.shipping.amount, currency },
              delivery_estimate: {
                minimum: { unit: 'business_day', value: input.shipping.minDays },
                maximum: { unit: 'business_day', value: input.shipping.maxDays },
              },
            },
          },
        ],
      }),
    };
    const session = await this.stripe.checkout.sessions.create(params, {
      idempotencyKey: `checkout-${input.checkoutId}`,
    });
    if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
    return { sessionId: session.id, url: session.url };
  }

  async expireCheckout(sessionId: string): Promise<'expired' | 'complete'> {
    const session = await this.stripe.checkout.sessions.retrieve(sessionId);
    if (session.status === 'complete') return 'complete';
    if (session.status === 'open') {
      const expired = await this.stripe.checkout.sessions.expire(sessionId, undefined, {
        idempotencyKey: `expire-${sessionId}`,
      });
      if (expired.status === 'complete') return 'complete';
    }
    return 'expired';
  }

  async changeSubscriptionPlan(
    subscriptionId: string,
    change: {
      unitAmount: number;
      currency: string;
      metadata: Record<string, string>;
      idempotencyKey: string;
    },
  ): Promise<void> {
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
    const item = subscription.items.data[0];
    if (!item) throw new Error(`Subscription ${subscriptionId} has no item`);
    const product = typeof item.price.product === 'string' ? item.price.product : item.price.product.id;
    await this.stripe.subscriptions.update(
      subscriptionId,
      {
        items: [
          {
            id: item.id,
            price_data: {
              currency: change.currency.toLowerCase(),
              product,
              unit_amount: change.unitAmount,
              recurring: { interval: 'month' },
            },
          },
        ],
        proration_behavior: 'create_prorations',
        metadata: change.metadata,
      },
      { idempotencyKey: change.idempotencyKey },
    );
  }

  async setSubscriptionQuantity(subscriptionId: string, quantity: number, idempotencyKey: string) {
    // Tried once, briefly: a lock is being added; the payments sweep tries again if this fails.
    const quick = { maxNetworkRetries: 0, timeout: 8_000 };
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionId, undefined, quick);
    const item = subscription.items.data[0];
    if (!item) throw new Error(`Subscription ${subscriptionId} has no item`);
    if (item.quantity === quantity) return;
    await this.stripe.subscriptions.update(
      subscriptionId,
      { items: [{ id: item.id, quantity }], proration_behavior: 'create_prorations' },
      { ...quick, idempotencyKey },
    );
  }

  async cancelSubscriptionNow(subscriptionId: string, idempotencyKey: string): Promise<void> {
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
    if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') return;
    await this.stripe.subscriptions.cancel(
      subscriptionId,
      {
        prorate: true,
        invoice_now: true,
        cancellation_details: { comment: 'Replaced by a newer subscription of the same portal' },
      },
      { idempotencyKey },
    );
  }

  async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean, idempotencyKey: string): Promise<void> {
    await this.stripe.subscriptions.update(
      subscriptionId,
      { cancel_at_period_end: cancel },
      { idempotencyKey },
    );
  }

  async cardPortalUrl(customerId: string, returnUrl: string, idempotencyKey: string): Promise<string> {
    const session = await this.stripe.billingPortal.sessions.create(
      { customer: customerId, return_url: returnUrl },
      { idempotencyKey },
    );
    return session.url;
  }

  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): ProviderEvent {
    if (!signatureHeader) throw new WebhookSignatureError('No signature header');
    try {
      const event = this.stripe.webhooks.constructEvent(rawBody, signatureHeader, this.webhookSecret);
      return event as unknown as ProviderEvent;
    } catch (error) {
      throw new WebhookSignatureError(
        error instanceof Error ? error.message : 'The signature does not verify',
      );
    }
  }
}

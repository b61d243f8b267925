import { z } from 'zod';
import { listQuerySchema, pageSchema } from './list-query';
import { planIdSchema, type PlanId } from './plans';
import { idSchema, lineText } from './safe-input';

// Payments, plans and the portal's standing (issue 13 items 1, 2, 6). Money is integer minor units
// with its currency. Checkout happens on the payment provider's page (the built-in sandbox or
// Stripe): no card data ever reaches this server, and only the provider's signed webhook changes a
// portal's plan or an order's state; the redirect back from checkout is never trusted alone.

/** The payment providers: the built-in sandbox (default, no network) or Stripe (STRIPE_SECRET_KEY). */
export const PAYMENT_PROVIDERS = ['sandbox', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/**
 * Where a portal stands with its payments:
 * - free: on the free plan, nothing to pay;
 * - active: a paid plan, paid up;
 * - canceling: paid up, and the subscription ends at the end of the period;
 * - past_due: the last payment failed; still paid up until `expireDate`, then lapsed;
 * - lapsed: on a paid plan without being paid up (not current): locks keep working and the access
 *   already given stays on them, but no new locks or people until it is paid again.
 */
export const PORTAL_STANDINGS = ['free', 'active', 'canceling', 'past_due', 'lapsed'] as const;
export type PortalStanding = (typeof PORTAL_STANDINGS)[number];

/**
 * A standing in words, the same for the portal's admins (billing, the portal switcher) and for the
 * platform's staff: one state, one label.
 */
export const PORTAL_STANDING_LABELS: Record<PortalStanding, string> = {
  free: 'Free plan',
  active: 'Paid up',
  canceling: 'Ends at the end of the period',
  past_due: 'Payment failing',
  lapsed: 'Not paid',
};

/** Provider subscription statuses that mean a payment is failing (Stripe's names). */
const FAILING_STATUSES = new Set(['past_due', 'unpaid', 'incomplete']);

/** The standing of a portal from its plan and what the provider last said (brief §1's "current"). */
export function portalStandingOf(portal: {
  plan: PlanId;
  /** isPortalCurrent of the portal. */
  current: boolean;
  stripeStatus: string | null;
  cancelAtPeriodEnd: boolean;
}): PortalStanding {
  if (portal.plan === 'free') return 'free';
  if (!portal.current) return 'lapsed';
  if (portal.stripeStatus !== null && FAILING_STATUSES.has(portal.stripeStatus)) return 'past_due';
  if (portal.cancelAtPeriodEnd) return 'canceling';
  return 'active';
}

/** Whether a portal in this standing may add locks and people. */
export function standingAllowsGrowth(standing: PortalStanding): boolean {
  return standing !== 'lapsed';
}

/** GET portal/subscription: the portal's plan, standing and subscription, for its admins. */
export const portalSubscriptionSchema = z.object({
  plan: planIdSchema,
  standing: z.enum(PORTAL_STANDINGS),
  /** Paid up (brief §1): the provider's status is active or expireDate is in the future. */
  current: z.boolean(),
  expireDate: z.iso.datetime().nullable(),
  stripe: z.object({ status: z.string().nullable() }),
  provider: z.enum(PAYMENT_PROVIDERS),
  /** How the portal pays: a running subscription, a prepaid period (upgradeLegacy), or nothing. */
  billing: z.enum(['subscription', 'prepaid', 'none']),
  cancelAtPeriodEnd: z.boolean(),
  /** The end of the period paid for, when a subscription runs. */
  currentPeriodEnd: z.iso.datetime().nullable(),
  /** When the provider last reported a failed payment, while it is failing. */
  paymentFailedAt: z.iso.datetime().nullable(),
  /** Locks the portal has now (what a subscription charges per lock for). */
  lockCount: z.number().int(),
  /** Whether the card can be changed on the provider's page (a customer exists there). */
  canManageCard: z.boolean(),
});
export type PortalSubscription = z.infer<typeof portalSubscriptionSchema>;

/** Where the browser goes after starting a checkout: the provider's hosted page. */
export const checkoutStartedSchema = z.object({
  checkoutId: z.string(),
  /** The provider's hosted checkout page. */
  url: z.string(),
});
export type CheckoutStarted = z.infer<typeof checkoutStartedSchema>;

/** POST portal/subscription/checkout (gopro, upgrade): start a subscription to a paid plan. */
export const subscriptionCheckoutInputSchema = z.object({
  plan: planIdSchema.exclude(['free']),
});
export type SubscriptionCheckoutInput = z.infer<typeof subscriptionCheckoutInputSchema>;

/** POST portal/subscription/plan: move a running subscription to another paid plan. */
export const subscriptionPlanChangeSchema = subscriptionCheckoutInputSchema;

/** How many months a prepaid period (upgradeLegacy) may buy at once. */
export const PREPAID_MONTHS = [1, 3, 12] as const;

/** POST portal/subscription/prepaid (upgradeLegacy): pay once by card for a period of a plan. */
export const prepaidCheckoutInputSchema = z.object({
  plan: planIdSchema.exclude(['free']),
  months: z.literal(PREPAID_MONTHS),
});
export type PrepaidCheckoutInput = z.infer<typeof prepaidCheckoutInputSchema>;

/** Net price of a prepaid period: the plan's price per lock per month × locks (at least one) × months. */
export function prepaidAmount(pricePerLockMonth: number, lockCount: number, months: number): number {
  return pricePerLockMonth * Math.max(1, lockCount) * months;
}

/** POST portal/subscription/card: the provider's page where the card is changed. */
export const cardPortalSchema = z.object({ url: z.string() });

export const CHECKOUT_KINDS = ['subscription', 'prepaid', 'order'] as const;
export type CheckoutKind = (typeof CHECKOUT_KINDS)[number];
export const CHECKOUT_STATUSES = ['open', 'complete', 'expired', 'canceled'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** The token handed to the browser with a checkout, proving it started that checkout. */
export const checkoutTokenSchema = z
  .string()
  .min(20)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, 'is not a valid token');

export const checkoutTokenQuerySchema = z.object({ token: checkoutTokenSchema });

/**
 * GET payments/checkout/{id}: what became of a checkout, as the success and canceled pages show it.
 * `complete` only once the provider's webhook said so.
 */
export const checkoutViewSchema = z.object({
  _id: z.string(),
  kind: z.enum(CHECKOUT_KINDS),
  status: z.enum(CHECKOUT_STATUSES),
  amountTotal: z.number().int(),
  currency: z.string(),
  plan: planIdSchema.nullable(),
  months: z.number().int().nullable(),
  /** The order a shop checkout pays for (its reference, state and lines). */
  orderRef: z.string().nullable(),
  createdAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});
export type CheckoutView = z.infer<typeof checkoutViewSchema>;

/** POST payments/checkout/{id}/cancel: the buyer turned back on the provider's page. */
export const checkoutCancelInputSchema = z.object({ token: checkoutTokenSchema });

/** Alerts to platform staff about money: failed webhooks and payments, oversold stock. */
export const STAFF_ALERT_KINDS = [
  'webhook_failed',
  'webhook_signature',
  'payment_failed',
  'subscription_lapsed',
  'stock_oversold',
] as const;
export type StaffAlertKind = (typeof STAFF_ALERT_KINDS)[number];

export const staffAlertSchema = z.object({
  _id: z.string(),
  kind: z.enum(STAFF_ALERT_KINDS),
  title: z.string(),
  message: z.string(),
  portal: z.object({ _id: z.string(), name: z.string() }).nullable(),
  createdAt: z.iso.datetime(),
});
export type StaffAlert = z.infer<typeof staffAlertSchema>;

export const staffAlertsQuerySchema = listQuerySchema({
  sortBy: ['createdAt'],
  filterBy: ['kind'],
});
export const staffAlertsPageSchema = pageSchema(staffAlertSchema);

/** Path parameters naming a checkout (our id, not the provider's). */
export const checkoutParamsSchema = z.object({ id: idSchema });

/** A short free-text reason, e.g. why staff adjusted stock. */
export const reasonSchema = lineText().max(200);

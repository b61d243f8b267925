import crypto from 'node:crypto';
import {
  BILLING_CURRENCY,
  isPortalCurrent,
  planIdSchema,
  PLANS,
  portalStandingOf,
  prepaidAmount,
  standingAllowsGrowth,
  type CheckoutStarted,
  type PlanId,
  type PortalStanding,
  type PortalSubscription,
  type PrepaidCheckoutInput,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import type { CheckoutRow, PortalRow, SubscriptionRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { currentPlan, recordPlanChange } from '../billing/plan-history';
import { sendMail } from '../../base/mail/send-mail';
import { recordMoneyChange } from '../payments/commerce-audit';
import { paymentFailedMail } from '../payments/payments.mail';
import type { EventContext, Payments } from '../payments/payments-context';
import { startCheckout } from '../payments/payments.service';
import type { InvoiceFacts, SessionFacts, SubscriptionFacts } from '../payments/provider-objects';
import { raiseStaffAlert } from '../payments/staff-alerts';
import { findPortalById } from '../../base/tenancy/portals.repository';
import { endOpenPlanCheckouts } from './subscription-upkeep';
import {
  countPortalLocks,
  findLatestSubscription,
  findLiveSubscription,
  findPortalCustomer,
  findReplacingSubscription,
  findSubscriptionByProviderId,
  insertSubscription,
  LIVE_SUBSCRIPTION_STATUSES,
  setPortalPaymentState,
  updateSubscription,
} from './subscriptions.repository';

// Plans and the portal's standing (issue 13 item 2). The provider is the source of truth: starting,
// changing or canceling a subscription asks the provider, and the portal's plan, stripe status and
// expireDate change only when its signed webhook says so (applied below, idempotently and in order).

/** Days a portal stays paid up after the end of the last period it paid for (the provider retries). */
export const PAYMENT_GRACE_DAYS = 3;

const DAY_MS = 86_400_000;

/** The person acting, with the address they are mailed at (the provider's receipt goes there). */
export type BuyerContext = ChangeContext & { email: string };

function isLive(row: SubscriptionRow | undefined): row is SubscriptionRow {
  return row !== undefined && (LIVE_SUBSCRIPTION_STATUSES as readonly string[]).includes(row.status);
}

async function requirePortal(db: Database, portalId: string): Promise<PortalRow> {
  const portal = await findPortalById(db, portalId);
  if (!portal) throw AppError.notFound('Portal');
  return portal;
}

/** Where a portal stands with its payments now, from its plan history and what the provider said. */
export async function portalStanding(
  db: Database,
  portalId: string,
  now = new Date(),
): Promise<{
  standing: PortalStanding;
  plan: PlanId;
  current: boolean;
  portal: PortalRow;
  subscription: SubscriptionRow | undefined;
}> {
  const portal = await requirePortal(db, portalId);
  const [plan, subscription] = await Promise.all([
    currentPlan(db, portalId, now),
    findLatestSubscription(db, portalId),
  ]);
  const current = isPortalCurrent(
    { stripeStatus: portal.stripe_status, expireDate: toIso(portal.expire_date) },
    now,
  );
  const standing = portalStandingOf({
    plan,
    current,
    stripeStatus: portal.stripe_status,
    cancelAtPeriodEnd: isLive(subscription) && subscription.cancel_at_period_end === 1,
  });
  return { standing, plan, current, portal, subscription };
}

/**
 * What a lapsed portal may not do: add locks or people (decisions.md "Commerce and billing"). Its
 * locks keep working and the access already given stays on them; removing and changing still work.
 */
export async function assertPortalMayGrow(db: Database, portalId: string): Promise<void> {
  const { standing } = await portalStanding(db, portalId);
  if (!standingAllowsGrowth(standing)) {
    throw new AppError(
      'payment_required',
      "This portal's plan is not paid up. Its locks keep working, but locks and people can be added again once it is paid (Upgrade).",
      402,
    );
  }
}

/** GET portal/subscription. */
export async function getPortalSubscription(
  db: Database,
  payments: Payments,
  portalId: string,
): Promise<PortalSubscription> {
  const { standing, plan, current, portal, subscription } = await portalStanding(db, portalId);
  const live = isLive(subscription) ? subscription : undefined;
  const customer = await findPortalCustomer(db, portalId, payments.provider.name);
  return {
    plan,
    standing,
    current,
    expireDate: toIso(portal.expire_date),
    stripe: { status: portal.stripe_status },
    provider: payments.provider.name,
    billing: live ? 'subscription' : plan !== 'free' && portal.expire_date ? 'prepaid' : 'none',
    cancelAtPeriodEnd: live?.cancel_at_period_end === 1,
    currentPeriodEnd: toIso(live?.current_period_end ?? null),
    paymentFailedAt: toIso(live?.payment_failed_at ?? null),
    lockCount: await countPortalLocks(db, portalId),
    canManageCard: customer !== null,
  };
}

/** POST portal/subscription/checkout (gopro, upgrade): a subscription to a paid plan, per lock. */
export async function startSubscriptionCheckout(
  db: Database,
  payments: Payments,
  context: BuyerContext,
  planId: Exclude<PlanId, 'free'>,
): Promise<CheckoutStarted> {
  if (isLive(await findLiveSubscription(db, context.portalId))) {
    throw AppError.conflict('This portal already has a subscription: change its plan instead');
  }
  // One plan purchase open at a time: an older one (another tab) ends (subscription-upkeep.ts).
  await endOpenPlanCheckouts(db, payments, context);
  const plan = PLANS[planId];
  const locks = Math.max(1, await countPortalLocks(db, context.portalId));
  const started = await startCheckout(db, payments, {
    kind: 'subscription',
    portalId: context.portalId,
    userId: context.actorUserId,
    ip: context.ip,
    plan: planId,
    quantity: locks,
    currency: BILLING_CURRENCY,
    mode: 'subscription',
    lines: [
      {
        name: `Latchkey ${plan.name}`,
        description: `${plan.name} plan, per lock per month`,
        unitAmount: plan.pricePerLockMonth,
        quantity: locks,
      },
    ],
    customerEmail: context.email,
    customerId: await findPortalCustomer(db, context.portalId, payments.provider.name),
    metadata: { portal_id: context.portalId, plan: planId },
  });
  return { checkoutId: started.checkoutId, url: started.url };
}

/** POST portal/subscription/plan: a running subscription moves to another plan (prorated). */
export async function changeSubscriptionPlan(
  db: Database,
  payments: Payments,
  context: ChangeContext,
  planId: Exclude<PlanId, 'free'>,
): Promise<PortalSubscription> {
  const live = await findLiveSubscription(db, context.portalId);
  if (!isLive(live))
    throw AppError.conflict('This portal has no subscription to change: choose a plan first');
  if (live.provider !== payments.provider.name) {
    throw AppError.conflict(`This subscription is with ${live.provider}, which this server does not use`);
  }
  if (live.plan === planId)
    throw AppError.conflict(`The portal is already on the ${PLANS[planId].name} plan`);
  await payments.provider.changeSubscriptionPlan(live.provider_subscription_id, {
    unitAmount: PLANS[planId].pricePerLockMonth,
    currency: BILLING_CURRENCY,
    metadata: { portal_id: context.portalId, plan: planId },
    idempotencyKey: `plan-${live.provider_subscription_id}-${planId}-${crypto.randomUUID()}`,
  });
  await recordMoneyChange(db, {
    ...actorOf(context),
    action: 'subscription.plan_requested',
    entityType: 'subscription',
    entityId: live.id,
    before: { plan: live.plan },
    after: { plan: planId },
  });
  return getPortalSubscription(db, payments, context.portalId);
}

/** POST portal/subscription/prepaid (upgradeLegacy): a period of a plan paid once by card. */
export async function startPrepaidCheckout(
  db: Database,
  payments: Payments,
  context: BuyerContext,
  input: PrepaidCheckoutInput,
): Promise<CheckoutStarted> {
  if (isLive(await findLiveSubscription(db, context.portalId))) {
    throw AppError.conflict('This portal pays by subscription: cancel it before paying for a period');
  }
  await endOpenPlanCheckouts(db, payments, context);
  const plan = PLANS[input.plan];
  const locks = Math.max(1, await countPortalLocks(db, context.portalId));
  const started = await startCheckout(db, payments, {
    kind: 'prepaid',
    portalId: context.portalId,
    userId: context.actorUserId,
    ip: context.ip,
    plan: input.plan,
    months: input.months,
    quantity: locks,
    currency: BILLING_CURRENCY,
    mode: 'payment',
    lines: [
      {
        name: `Latchkey ${plan.name}, ${input.months} month${input.months === 1 ? '' : 's'} per lock`,
        unitAmount: prepaidAmount(plan.pricePerLockMonth, 1, input.months),
        quantity: locks,
      },
    ],
    customerEmail: context.email,
    metadata: { portal_id: context.portalId, plan: input.plan, months: String(input.months) },
  });
  return { checkoutId: started.checkoutId, url: started.url };
}

/** DELETE stripe/cancel (cancel: true) and POST portal/subscription/resume (cancel: false). */
export async function setSubscriptionCanceling(
  db: Database,
  payments: Payments,
  context: ChangeContext,
  cancel: boolean,
): Promise<PortalSubscription> {
  const live = await findLiveSubscription(db, context.portalId);
  if (!isLive(live)) throw AppError.conflict('This portal has no running subscription');
  if (live.provider !== payments.provider.name) {
    throw AppError.conflict(`This subscription is with ${live.provider}, which this server does not use`);
  }
  if ((live.cancel_at_period_end === 1) === cancel) {
    throw AppError.conflict(
      cancel ? 'The subscription already ends at the end of the period' : 'The subscription is not ending',
    );
  }
  await payments.provider.setCancelAtPeriodEnd(
    live.provider_subscription_id,
    cancel,
    `cancel-${live.provider_subscription_id}-${cancel}-${crypto.randomUUID()}`,
  );
  await recordMoneyChange(db, {
    ...actorOf(context),
    action: cancel ? 'subscription.cancel_requested' : 'subscription.resume_requested',
    entityType: 'subscription',
    entityId: live.id,
    before: { cancelAtPeriodEnd: live.cancel_at_period_end === 1 },
    after: { cancelAtPeriodEnd: cancel },
  });
  return getPortalSubscription(db, payments, context.portalId);
}

/**
 * POST portal/subscription/free: a portal whose paid plan is no longer paid (lapsed) goes back to
 * the free plan instead of paying, and may grow again within it. A running subscription is canceled
 * instead; a paid-up period is kept until it ends.
 */
export async function moveToFreePlan(
  db: Database,
  payments: Payments,
  context: ChangeContext,
): Promise<PortalSubscription> {
  const { standing, plan } = await portalStanding(db, context.portalId);
  if (plan === 'free') throw AppError.conflict('The portal is already on the Free plan');
  if (isLive(await findLiveSubscription(db, context.portalId))) {
    throw AppError.conflict('Cancel the subscription instead: the portal moves to Free when it ends');
  }
  if (standing !== 'lapsed')
    throw AppError.conflict('The portal is paid up: it moves to Free when that ends');
  await db.transaction().execute(async (trx) => {
    await recordPlanChange(trx, context.portalId, 'free', new Date(), {
      actorUserId: context.actorUserId,
      ip: context.ip,
    });
    await recordMoneyChange(trx, {
      ...actorOf(context),
      action: 'subscription.free',
      entityType: 'portal',
      entityId: context.portalId,
      before: { plan },
      after: { plan: 'free' },
    });
  });
  return getPortalSubscription(db, payments, context.portalId);
}

/** POST portal/subscription/card: the provider's page for changing the card. */
export async function cardPortalLink(
  db: Database,
  payments: Payments,
  context: ChangeContext,
): Promise<{ url: string }> {
  const customer = await findPortalCustomer(db, context.portalId, payments.provider.name);
  if (!customer) throw AppError.conflict('This portal has no card on file yet: choose a plan first');
  const url = await payments.provider.cardPortalUrl(
    customer,
    `${payments.publicUrl}/app/upgrade`,
    `card-${customer}-${crypto.randomUUID()}`,
  );
  return { url };
}

function actorOf(context: ChangeContext) {
  return { portalId: context.portalId, actorUserId: context.actorUserId, ip: context.ip };
}

// --- Webhooks (registered with payments by subscriptions.plugin.ts; the webhook calls them inside
// the event's transaction) ---

const PROVIDER_ACTOR = { actorUserId: null, ip: null } as const;

/** A subscription checkout was paid: the subscription is the portal's, on the plan bought. */
export async function completeSubscriptionCheckout(
  trx: Database,
  event: EventContext,
  checkout: CheckoutRow,
  session: SessionFacts,
): Promise<void> {
  if (!checkout.portal_id || !checkout.plan)
    throw new Error(`Checkout ${checkout.id} names no portal or plan`);
  if (!session.subscription) throw new Error(`Session ${session.id} completed without a subscription`);
  const row = await ensureSubscription(trx, event, {
    portalId: checkout.portal_id,
    subscriptionId: session.subscription,
    customer: session.customer,
    plan: checkout.plan,
    status: 'active',
    quantity: checkout.quantity,
  });
  if (session.customer && !row.provider_customer_id) {
    await updateSubscription(trx, row.portal_id, row.id, { provider_customer_id: session.customer });
  }
  // The first invoice is paid: the plan is in force from now (a later event may move it on).
  const latest = (await findSubscriptionByProviderId(
    trx,
    event.payments.provider.name,
    session.subscription,
  ))!;
  if (isLive(latest) && !(await findReplacingSubscription(trx, latest))) {
    await recordPlanChange(trx, checkout.portal_id, latest.plan, event.at, PROVIDER_ACTOR);
  }
  await syncPortal(trx, checkout.portal_id);
}

/** A prepaid period was paid: the plan runs until expireDate, moved on by the months bought. */
export async function completePrepaidCheckout(
  trx: Database,
  event: EventContext,
  checkout: CheckoutRow,
): Promise<void> {
  if (!checkout.portal_id || !checkout.plan || !checkout.months) {
    throw new Error(`Checkout ${checkout.id} names no portal, plan or period`);
  }
  const portal = await requirePortal(trx, checkout.portal_id);
  const previous = toIso(portal.expire_date);
  const from = Math.max(Date.now(), previous ? Date.parse(previous) : 0);
  const until = new Date(from);
  until.setUTCMonth(until.getUTCMonth() + checkout.months);
  await setPortalPaymentState(trx, checkout.portal_id, { expireDate: until.toISOString() });
  await recordPlanChange(trx, checkout.portal_id, checkout.plan, event.at, PROVIDER_ACTOR);
  await recordMoneyChange(trx, {
    portalId: checkout.portal_id,
    ...PROVIDER_ACTOR,
    action: 'subscription.prepaid',
    entityType: 'portal',
    entityId: checkout.portal_id,
    before: { expireDate: previous },
    after: {
      expireDate: until.toISOString(),
      plan: checkout.plan,
      months: checkout.months,
      paid: checkout.amount_total,
      currency: checkout.currency,
    },
  });
}

/**
 * A subscription created, changed or ended at the provider. Events may arrive out of order: one
 * made before the last applied changes nothing, and an ended subscription never comes back.
 */
export async function applySubscription(
  trx: Database,
  event: EventContext,
  facts: SubscriptionFacts,
): Promise<void> {
  const provider = event.payments.provider.name;
  let row = await findSubscriptionByProviderId(trx, provider, facts.id);
  if (!row) {
    const portalId = facts.metadata.portal_id;
    const plan = planIdSchema.safeParse(facts.metadata.plan);
    if (!portalId || !plan.success || !(await findPortalById(trx, portalId))) {
      // Not one of ours (another integration on the same account): nothing to do.
      event.payments.log.warn(
        { subscription: facts.id },
        'webhook: a subscription that names no portal of ours',
      );
      return;
    }
    row = await ensureSubscription(trx, event, {
      portalId,
      subscriptionId: facts.id,
      customer: facts.customer,
      plan: plan.data,
      status: facts.status,
      quantity: facts.quantity,
    });
  } else if (new Date(toIso(row.last_event_at)).getTime() > event.at.getTime()) {
    return; // older than what is applied
  }
  if (row.status === 'canceled' && facts.status !== 'canceled') return;
  // 'incomplete' only comes before the first payment: it never undoes a subscription already running.
  if (facts.status === 'incomplete' && isLive(row)) return;

  const plan = planIdSchema.safeParse(facts.metadata.plan);
  const nextPlan = plan.success && plan.data !== 'free' ? plan.data : row.plan;
  const before = { status: row.status, plan: row.plan, cancelAtPeriodEnd: row.cancel_at_period_end === 1 };
  const after = { status: facts.status, plan: nextPlan, cancelAtPeriodEnd: facts.cancelAtPeriodEnd };
  await updateSubscription(trx, row.portal_id, row.id, {
    status: facts.status,
    plan: nextPlan,
    cancel_at_period_end: facts.cancelAtPeriodEnd ? 1 : 0,
    current_period_end: facts.currentPeriodEnd?.toISOString() ?? toIso(row.current_period_end),
    quantity: facts.quantity,
    provider_customer_id: facts.customer ?? row.provider_customer_id,
    last_event_at: event.at.toISOString(),
    updated_at: new Date().toISOString(),
  });

  // Two paid plan checkouts: the portal's newest running subscription replaces this one (older).
  const replacing = await findReplacingSubscription(trx, row);
  if (facts.status === 'canceled' && row.status !== 'canceled') {
    const voluntary =
      !facts.endedForNonPayment && (facts.cancelAtPeriodEnd || row.cancel_at_period_end === 1);
    if (replacing && !facts.endedForNonPayment) {
      // Ended because the newer one replaced it: the newer one's plan is the portal's from now.
      await recordPlanChange(trx, row.portal_id, replacing.plan, event.at, PROVIDER_ACTOR);
    } else if (voluntary) {
      // Canceled by the portal: it is on the free plan from the end of what it paid for.
      await recordPlanChange(trx, row.portal_id, 'free', event.at, PROVIDER_ACTOR);
    } else {
      // Ended for non-payment: the plan stays and the portal lapses once its paid time is over.
      await raiseStaffAlert(
        trx,
        {
          kind: 'subscription_lapsed',
          title: 'A subscription ended for non-payment',
          message: `The ${PLANS[nextPlan].name} subscription ${facts.id} of portal ${row.portal_id} was ended by the provider after failed payments.`,
          portalId: row.portal_id,
          onceKey: `subscription_lapsed:${facts.id}`,
        },
        event.payments.publicUrl,
      );
    }
  } else if (['active', 'trialing', 'past_due', 'unpaid'].includes(facts.status) && !replacing) {
    await recordPlanChange(trx, row.portal_id, nextPlan, event.at, PROVIDER_ACTOR);
  }
  if (JSON.stringify(before) !== JSON.stringify(after)) {
    await recordMoneyChange(trx, {
      portalId: row.portal_id,
      ...PROVIDER_ACTOR,
      action: 'subscription.update',
      entityType: 'subscription',
      entityId: row.id,
      before,
      after,
    });
  }
  await syncPortal(trx, row.portal_id);
}

/**
 * An invoice of a subscription paid (the portal is paid up to the period's end, plus the grace
 * days) or failed (the portal's owner and platform staff are told; it stays paid up to what it paid).
 */
export async function applyInvoice(
  trx: Database,
  event: EventContext,
  invoice: InvoiceFacts,
  paid: boolean,
): Promise<void> {
  if (!invoice.subscription) return; // a one-off invoice: shop orders are settled by their checkout
  const provider = event.payments.provider.name;
  let row = await findSubscriptionByProviderId(trx, provider, invoice.subscription);
  if (!row) {
    const portalId = invoice.metadata.portal_id;
    const plan = planIdSchema.safeParse(invoice.metadata.plan);
    if (!portalId || !plan.success || !(await findPortalById(trx, portalId))) return;
    // Before the subscription's own event: kept with the oldest possible time, so that event applies.
    row = await ensureSubscription(trx, event, {
      portalId,
      subscriptionId: invoice.subscription,
      customer: invoice.customer,
      plan: plan.data,
      status: paid ? 'active' : 'past_due',
      quantity: 1,
      lastEventAt: new Date(0),
    });
  }
  const portal = await requirePortal(trx, row.portal_id);
  if (paid) {
    const previous = toIso(portal.expire_date);
    const paidUntil = invoice.periodEnd
      ? new Date(invoice.periodEnd.getTime() + PAYMENT_GRACE_DAYS * DAY_MS)
      : null;
    if (paidUntil && (!previous || Date.parse(previous) < paidUntil.getTime())) {
      await setPortalPaymentState(trx, row.portal_id, { expireDate: paidUntil.toISOString() });
    }
    await updateSubscription(trx, row.portal_id, row.id, { payment_failed_at: null });
    await recordMoneyChange(trx, {
      portalId: row.portal_id,
      ...PROVIDER_ACTOR,
      action: 'subscription.paid',
      entityType: 'subscription',
      entityId: row.id,
      before: { expireDate: previous },
      after: {
        invoice: invoice.id,
        amountPaid: invoice.amountPaid,
        currency: invoice.currency,
        paidUntil: paidUntil?.toISOString() ?? previous,
      },
    });
  } else {
    await updateSubscription(trx, row.portal_id, row.id, { payment_failed_at: event.at.toISOString() });
    await recordMoneyChange(trx, {
      portalId: row.portal_id,
      ...PROVIDER_ACTOR,
      action: 'subscription.payment_failed',
      entityType: 'subscription',
      entityId: row.id,
      after: { invoice: invoice.id, amountDue: invoice.amountDue, currency: invoice.currency },
    });
    await raiseStaffAlert(
      trx,
      {
        kind: 'payment_failed',
        title: `A payment for ${portal.name} failed`,
        message: `Invoice ${invoice.id} of subscription ${row.provider_subscription_id} (${PLANS[row.plan].name}) was not paid. The portal stays paid up until ${toIso(portal.expire_date) ?? 'now'}.`,
        portalId: row.portal_id,
        onceKey: `payment_failed:${invoice.id}:${event.eventId}`,
      },
      event.payments.publicUrl,
    );
    const owner = await trx
      .selectFrom('users')
      .select('email')
      .where('id', '=', portal.owner_user_id)
      .executeTakeFirst();
    if (owner) {
      const expire = toIso(portal.expire_date);
      await sendMail(trx, 'system', {
        portalId: row.portal_id,
        template: 'payment_failed',
        to: owner.email,
        ...paymentFailedMail({
          portalName: portal.name,
          plan: PLANS[row.plan].name,
          paidUntil: expire ? new Date(expire).toUTCString().slice(0, 16) : null,
          link: `${event.payments.publicUrl}/app/upgrade`,
        }),
      });
    }
  }
  await syncPortal(trx, row.portal_id);
}

/** The subscription row for a provider subscription, made if this is the first word of it. */
async function ensureSubscription(
  trx: Database,
  event: EventContext,
  facts: {
    portalId: string;
    subscriptionId: string;
    customer: string | null;
    plan: PlanId;
    status: string;
    quantity: number;
    lastEventAt?: Date;
  },
): Promise<SubscriptionRow> {
  const provider = event.payments.provider.name;
  const existing = await findSubscriptionByProviderId(trx, provider, facts.subscriptionId);
  if (existing) return existing;
  const now = new Date().toISOString();
  await insertSubscription(trx, {
    id: crypto.randomUUID(),
    portal_id: facts.portalId,
    provider,
    provider_subscription_id: facts.subscriptionId,
    provider_customer_id: facts.customer,
    plan: facts.plan,
    status: facts.status,
    quantity: facts.quantity,
    current_period_end: null,
    cancel_at_period_end: 0,
    payment_failed_at: null,
    // The checkout's word counts for less than the subscription's own events, whenever they come.
    last_event_at: (facts.lastEventAt ?? new Date(0)).toISOString(),
    created_at: now,
    updated_at: now,
  });
  await recordMoneyChange(trx, {
    portalId: facts.portalId,
    ...PROVIDER_ACTOR,
    action: 'subscription.create',
    entityType: 'subscription',
    entityId: facts.subscriptionId,
    after: { plan: facts.plan, status: facts.status, provider },
  });
  return (await findSubscriptionByProviderId(trx, provider, facts.subscriptionId))!;
}

/** The portal's stripe status follows its newest subscription. */
async function syncPortal(trx: Database, portalId: string): Promise<void> {
  const latest = await findLatestSubscription(trx, portalId);
  if (latest) await setPortalPaymentState(trx, portalId, { stripeStatus: latest.status });
}

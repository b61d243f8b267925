// Plans and the portal's standing (issue 13 item 2). The provider is the source of truth: starting,
// changing or canceling a subscription asks the provider, and the portal's plan, stripe status and
// expireDate change only when its signed webhook says so (applied in subscription-webhooks.service.ts,
// idempotently and in order). Here: what a portal's admins ask (GET portal/subscription, checkouts,
// plan change, cancel and resume, the free plan, the card page); its standing is
// portal-standing.service.ts.
import crypto from 'node:crypto';
import {
  BILLING_CURRENCY,
  PLANS,
  prepaidAmount,
  type CheckoutStarted,
  type PlanId,
  type PortalSubscription,
  type PrepaidCheckoutInput,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordPlanChange } from '../billing/plan-history';
import { recordMoneyChange } from '../payments/commerce-audit';
import type { Payments } from '../payments/payments-context';
import { startCheckout } from '../payments/payments.service';
import { endOpenPlanCheckouts } from './subscription-upkeep';
import { countPortalLocks, findLiveSubscription, findPortalCustomer } from './subscriptions.repository';
import { isLive, portalStanding } from './portal-standing.service';

/** The person acting, with the address they are mailed at (the provider's receipt goes there). */
export type BuyerContext = ChangeContext & { email: string };

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

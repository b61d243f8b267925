// The provider's word on a portal's subscriptions: paid checkouts, subscription and invoice events.
// Registered with payments by subscriptions.plugin.ts; the webhook calls them inside the event's
// transaction. Apart from what a portal's admins ask (subscriptions.service.ts): another caller,
// inside another transaction, and the only code that changes a portal's plan from the provider's side.
import crypto from 'node:crypto';
import { formatDate, planIdSchema, PLANS, type PlanId } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import type { CheckoutRow, SubscriptionRow } from '../../db/schema';
import { recordPlanChange } from '../billing/plan-history';
import { sendMail } from '../../base/mail/send-mail';
import { recordMoneyChange } from '../payments/commerce-audit';
import { paymentFailedMail } from '../payments/payments.mail';
import type { EventContext } from '../payments/payments-context';
import type { InvoiceFacts, SessionFacts, SubscriptionFacts } from '../payments/provider-objects';
import { raiseStaffAlert } from '../payments/staff-alerts';
import { findPortalById } from '../../base/tenancy/portals.repository';
import {
  findLatestSubscription,
  findReplacingSubscription,
  findSubscriptionByProviderId,
  insertSubscription,
  setPortalPaymentState,
  updateSubscription,
} from './subscriptions.repository';
import { isLive, requirePortal } from './portal-standing.service';

/** Days a portal stays paid up after the end of the last period it paid for (the provider retries). */
export const PAYMENT_GRACE_DAYS = 3;

const DAY_MS = 86_400_000;

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
          // On the portal's clock, in the words of its screens (issue 19, item 4).
          paidUntil: expire ? formatDate(expire, portal.time_zone) : null,
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

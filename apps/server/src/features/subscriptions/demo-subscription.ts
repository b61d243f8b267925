import crypto from 'node:crypto';
import type { PlanId } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { recordPlanChange } from '../billing/plan-history';
import { insertSubscription, setPortalPaymentState } from './subscriptions.repository';

const DAY_MS = 86_400_000;

/**
 * Demo data: a portal that was on a paid plan from `startedDaysAgo` until its subscription was
 * ended for non-payment `lapsedDaysAgo`: the plan stays, it is no longer current (lapsed).
 */
export async function seedLapsedSubscription(
  db: Database,
  portalId: string,
  history: { plan: Exclude<PlanId, 'free'>; startedDaysAgo: number; lapsedDaysAgo: number },
): Promise<void> {
  const started = new Date(Date.now() - history.startedDaysAgo * DAY_MS).toISOString();
  const lapsed = new Date(Date.now() - history.lapsedDaysAgo * DAY_MS).toISOString();
  await recordPlanChange(db, portalId, history.plan, started);
  await insertSubscription(db, {
    id: crypto.randomUUID(),
    portal_id: portalId,
    provider: 'sandbox',
    provider_subscription_id: `sub_demo_${crypto.randomBytes(8).toString('hex')}`,
    provider_customer_id: null,
    plan: history.plan,
    status: 'canceled',
    quantity: 1,
    current_period_end: lapsed,
    cancel_at_period_end: 0,
    payment_failed_at: lapsed,
    last_event_at: lapsed,
    created_at: started,
    updated_at: lapsed,
  });
  await setPortalPaymentState(db, portalId, { stripeStatus: 'canceled', expireDate: lapsed });
}

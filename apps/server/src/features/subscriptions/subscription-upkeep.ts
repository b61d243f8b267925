import crypto from 'node:crypto';
import type { Database } from '../../db/database';
import { toCount } from '../../db/mappers';
import type { ChangeContext } from '../../base/http/access';
import { recordMoneyChange } from '../payments/commerce-audit';
import type { Payments } from '../payments/payments-context';
import { endCheckout } from '../payments/payments.service';
import {
  countPortalLocks,
  findLiveSubscription,
  LIVE_SUBSCRIPTION_STATUSES,
  listLiveSubscriptions,
} from './subscriptions.repository';

// Keeping what the provider charges in step with the portal (issue 16, defects 6 and 7;
// decisions.md "One subscription per portal; plans that hold"). Both rules are read from what is
// stored, not from a queue: a portal with two running subscriptions, or a subscription whose
// quantity is not the portal's lock count, is itself the work still to do. So the request or
// webhook that caused it tries at once, and the payments sweep finds whatever a provider outage
// left undone, on any server, after a restart too.

const PROVIDER_ACTOR = { actorUserId: null, ip: null } as const;

/**
 * Opening a plan checkout ends the portal's older open plan checkouts (a second tab, a page left
 * open): one plan purchase is open at a time. One of them paid meanwhile still completes (paid
 * wins), and endReplacedSubscriptions settles which subscription stays.
 */
export async function endOpenPlanCheckouts(
  db: Database,
  payments: Payments,
  context: ChangeContext,
): Promise<void> {
  const open = await db
    .selectFrom('checkouts')
    .selectAll()
    .where('portal_id', '=', context.portalId)
    .where('kind', 'in', ['subscription', 'prepaid'])
    .where('status', '=', 'open')
    .execute();
  for (const row of open) {
    await endCheckout(db, payments, row, 'canceled', { actorUserId: context.actorUserId, ip: context.ip });
  }
}

/**
 * One running subscription per portal: when two plan checkouts were both paid, the subscription we
 * heard of last stays and the others are ended now at the provider (the unused time prorated as the
 * provider does). `portalId`: that portal only; otherwise every portal that has more than one.
 * Failures are logged and left for the next sweep.
 */
export async function endReplacedSubscriptions(
  db: Database,
  payments: Payments,
  portalId?: string,
): Promise<void> {
  let query = db
    .selectFrom('subscriptions')
    .select('portal_id')
    .where('provider', '=', payments.provider.name)
    .where('status', 'in', [...LIVE_SUBSCRIPTION_STATUSES])
    .groupBy('portal_id')
    .having((eb) => eb.fn.countAll(), '>', 1);
  if (portalId) query = query.where('portal_id', '=', portalId);
  for (const { portal_id } of await query.execute()) {
    const [newest, ...older] = await listLiveSubscriptions(db, portal_id, payments.provider.name);
    for (const row of older) {
      try {
        await payments.provider.cancelSubscriptionNow(
          row.provider_subscription_id,
          `replaced-${row.provider_subscription_id}`,
        );
        await recordMoneyChange(db, {
          portalId: portal_id,
          ...PROVIDER_ACTOR,
          action: 'subscription.replace_requested',
          entityType: 'subscription',
          entityId: row.id,
          before: { plan: row.plan, status: row.status },
          after: { replacedBy: newest!.provider_subscription_id, plan: newest!.plan },
        });
      } catch (error) {
        payments.log.warn(
          { err: error, subscription: row.provider_subscription_id },
          'a replaced subscription could not be ended yet; the payments sweep tries again',
        );
      }
    }
  }
}

/**
 * A running subscription's quantity follows the portal's lock count (at least one), prorated as
 * the provider does. Called after locks are added or removed; never fails the caller (the sweep
 * tries again).
 */
export async function keepQuantityInStep(db: Database, payments: Payments, portalId: string): Promise<void> {
  try {
    const live = await findLiveSubscription(db, portalId);
    if (!live || live.provider !== payments.provider.name) return;
    const wanted = Math.max(1, await countPortalLocks(db, portalId));
    if (live.quantity === wanted) return;
    await payments.provider.setSubscriptionQuantity(
      live.provider_subscription_id,
      wanted,
      `quantity-${live.provider_subscription_id}-${wanted}-${crypto.randomUUID()}`,
    );
    await recordMoneyChange(db, {
      portalId,
      ...PROVIDER_ACTOR,
      action: 'subscription.quantity_requested',
      entityType: 'subscription',
      entityId: live.id,
      before: { quantity: live.quantity },
      after: { quantity: wanted },
    });
  } catch (error) {
    payments.log.warn(
      { err: error, portalId },
      "a subscription's quantity could not be updated yet; the payments sweep tries again",
    );
  }
}

/** The payments sweep's part: both rules above, for every portal whose subscriptions are not in step. */
export async function reconcileSubscriptions(db: Database, payments: Payments): Promise<void> {
  await endReplacedSubscriptions(db, payments);
  const rows = await db
    .selectFrom('subscriptions')
    .select((eb) => [
      'subscriptions.portal_id',
      'subscriptions.quantity',
      eb
        .selectFrom('devices')
        .select(eb.fn.countAll().as('n'))
        .whereRef('devices.portal_id', '=', 'subscriptions.portal_id')
        .where('devices.deleted_at', 'is', null)
        .as('locks'),
    ])
    .where('subscriptions.provider', '=', payments.provider.name)
    .where('subscriptions.status', 'in', [...LIVE_SUBSCRIPTION_STATUSES])
    .execute();
  for (const row of rows) {
    const wanted = Math.max(1, toCount(row.locks as string | number | undefined));
    if (row.quantity !== wanted) await keepQuantityInStep(db, payments, row.portal_id);
  }
}

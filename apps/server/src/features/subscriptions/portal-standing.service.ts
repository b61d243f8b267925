// Where a portal stands with its payments (paid up, lapsed…), from its plan history and what the
// provider said, and what a lapsed portal may not do. Apart from the portal's plan requests
// (subscriptions.service.ts) and the provider's webhooks (subscription-webhooks.service.ts)
// because other features ask it too (adding locks and people) and it changes nothing.
import {
  isPortalCurrent,
  portalStandingOf,
  standingAllowsGrowth,
  type PlanId,
  type PortalStanding,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import type { PortalRow, SubscriptionRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import { currentPlan } from '../billing/plan-history';
import { findPortalById } from '../../base/tenancy/portals.repository';
import { findLatestSubscription, LIVE_SUBSCRIPTION_STATUSES } from './subscriptions.repository';

/** A subscription that is running at the provider (LIVE_SUBSCRIPTION_STATUSES). */
export function isLive(row: SubscriptionRow | undefined): row is SubscriptionRow {
  return row !== undefined && (LIVE_SUBSCRIPTION_STATUSES as readonly string[]).includes(row.status);
}

/** The portal, or a 404. */
export async function requirePortal(db: Database, portalId: string): Promise<PortalRow> {
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

import { cheapestPlanWith, PLAN_FEATURE_NAMES, PLANS, planHas, type PlanFeature } from '@latchkey/shared';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { AppError } from '../../base/http/errors';
import { portalStanding } from './portal-standing.service';

// The plan page and the server agree (issue 19, item 9; decisions.md "Plans that tell the truth").
// A feature the plan page lists (PLAN_FEATURES) is refused to a portal whose plan lacks it with a
// 402 naming the plan that has it, so the screen can show the way to it. A portal that is not paid
// up has what the Free plan has, as with locks (plan-allowance.ts). What a portal made while it had
// the feature keeps working: the gate stands where something new is started, never on what exists.

/**
 * Whether this deployment holds portals to their plans: PLAN_LOCK_LIMITS=false is a deployment
 * that sells no plans (every portal is on Free), where no feature may be withheld either.
 */
export type PlanGates = 'enforced' | 'off';

export function planGatesOf(config: Pick<Config, 'PLAN_LOCK_LIMITS'>): PlanGates {
  return config.PLAN_LOCK_LIMITS ? 'enforced' : 'off';
}

/** Whether the portal's plan, as it stands now, includes a feature. */
export async function portalHasFeature(
  db: Database,
  portalId: string,
  feature: PlanFeature,
): Promise<boolean> {
  const { plan, current } = await portalStanding(db, portalId);
  return current && planHas(plan, feature);
}

/**
 * Refuses a request that starts something of a plan feature the portal's plan lacks: 402
 * `payment_required`, naming the feature, the plan that includes it and the portal's own plan.
 */
export async function assertPlanIncludes(
  db: Database,
  portalId: string,
  feature: PlanFeature,
  gates: PlanGates = 'enforced',
): Promise<void> {
  if (gates === 'off') return;
  const { plan, current } = await portalStanding(db, portalId);
  if (current && planHas(plan, feature)) return;
  const needed = cheapestPlanWith(feature).name;
  const what = PLAN_FEATURE_NAMES[feature];
  throw new AppError(
    'payment_required',
    planHas(plan, feature)
      ? `${what} are part of the ${PLANS[plan].name} plan, which this portal has not paid for. What it already has keeps working; pay for the plan (Upgrade) to add more.`
      : `${what} are part of the ${needed} plan; this portal is on ${PLANS[plan].name}. Choose ${needed} (Upgrade) to use them.`,
    402,
  );
}

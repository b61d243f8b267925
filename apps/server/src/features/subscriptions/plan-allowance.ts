import { PLANS, standingAllowsGrowth } from '@latchkey/shared';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { isPostgres } from '../../db/search';
import { AppError } from '../../base/http/errors';
import { countPortalLocks } from './subscriptions.repository';
import { portalStanding } from './portal-standing.service';

// How many locks a portal may have (issue 16, defect 7; decisions.md "One subscription per portal;
// plans that hold"). A portal that is paid up (brief §1: current) may have what its plan allows
// (Pro and Business: any number); one that is not current may have what the Free plan allows. A
// portal already over its allowance keeps every lock it has (nothing is taken away) but adds none.

/**
 * Whether a path that adds locks checks the plan's allowance: `exempt` for the demo seed, and
 * everywhere with PLAN_LOCK_LIMITS=false (a deployment that sells no plans).
 */
export type LockAllowance = 'enforced' | 'exempt';

/** The allowance requests are held to on this deployment (PLAN_LOCK_LIMITS, default on). */
export function lockAllowanceOf(config: Pick<Config, 'PLAN_LOCK_LIMITS'>): LockAllowance {
  return config.PLAN_LOCK_LIMITS ? 'enforced' : 'exempt';
}

/**
 * Refuses adding `count` locks to a portal that may not have them (402 `payment_required`, with
 * the reason the web app shows): a lapsed portal adds none (assertPortalMayGrow's rule), any other
 * portal up to its allowance. Call it in the transaction that adds the locks: on PostgreSQL the
 * portal's row is locked, so two adds at once take turns and cannot both take the last place
 * (a SQLite transaction holds the only connection already).
 */
export async function assertMayAddLocks(db: Database, portalId: string, count: number): Promise<void> {
  if (isPostgres(db)) {
    await db.selectFrom('portals').select('id').where('id', '=', portalId).forUpdate().execute();
  }
  const { standing, plan, current } = await portalStanding(db, portalId);
  if (!standingAllowsGrowth(standing)) {
    throw new AppError(
      'payment_required',
      "This portal's plan is not paid up. Its locks keep working, but locks and people can be added again once it is paid (Upgrade).",
      402,
    );
  }
  const { maxLocks: max, name: planName } = current ? PLANS[plan] : PLANS.free;
  if (max === null) return;
  const have = await countPortalLocks(db, portalId);
  if (have + count <= max) return;
  const plural = (n: number) => `${n} lock${n === 1 ? '' : 's'}`;
  throw new AppError(
    'payment_required',
    have >= max
      ? `The ${planName} plan allows ${plural(max)} and this portal has ${have}. Its locks keep working; choose a paid plan (Upgrade) to add more.`
      : `The ${planName} plan allows ${plural(max)} and this portal has ${have}, so ${plural(count)} more would be too many. Choose a paid plan (Upgrade) to add them.`,
    402,
  );
}

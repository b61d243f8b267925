import { z } from 'zod';

// The plans a portal can be on, priced per lock per month like Seam, RemoteLock or Kisi. Money is
// always integer minor units (cents) with its currency; prices here are net (VAT is added on the bill).

/** The currency every price and bill is in. */
export const BILLING_CURRENCY = 'EUR';

/** An amount in minor units as people read it (en-US): formatMoney(1733, 'EUR') → "€17.33". */
export function formatMoney(minor: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(minor / 100);
}

export const PLAN_IDS = ['free', 'pro', 'business'] as const;
export const planIdSchema = z.enum(PLAN_IDS);
export type PlanId = z.infer<typeof planIdSchema>;

/**
 * What a plan unlocks beyond managing locks and people. Only what the server checks is listed
 * (issue 19, item 9: the plan page once sold API access, reports and priority support, which
 * nothing in the product gave or withheld): every feature here has a gate a route calls
 * (features/subscriptions/plan-features.ts; test/plan-features.test.ts walks this list).
 */
export const PLAN_FEATURES = ['rentals'] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

/** Each feature as the plan page and the server's refusals name it. */
export const PLAN_FEATURE_NAMES: Record<PlanFeature, string> = {
  rentals: 'Rentals and guest stays',
};

export interface Plan {
  id: PlanId;
  name: string;
  /** Net price per lock per month, in minor units of BILLING_CURRENCY. */
  pricePerLockMonth: number;
  /** Locks included at no charge (the free plan's whole allowance). */
  includedLocks: number;
  /** Most locks the plan allows; null for no limit. */
  maxLocks: number | null;
  features: readonly PlanFeature[];
  /** What a reseller pays per lock per month for a customer on this plan (wholesale). */
  wholesalePerLockMonth: number;
}

/** The plan catalogue. Changing a price applies from the next bill; closed invoices never change. */
export const PLANS: Record<PlanId, Plan> = {
  free: {
    id: 'free',
    name: 'Free',
    pricePerLockMonth: 0,
    includedLocks: 2,
    maxLocks: 2,
    features: [],
    wholesalePerLockMonth: 0,
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    pricePerLockMonth: 400,
    includedLocks: 0,
    maxLocks: null,
    features: [],
    wholesalePerLockMonth: 280,
  },
  business: {
    id: 'business',
    name: 'Business',
    pricePerLockMonth: 700,
    includedLocks: 0,
    maxLocks: null,
    features: ['rentals'],
    wholesalePerLockMonth: 490,
  },
};

/** Whether a plan includes a feature. */
export function planHas(plan: PlanId, feature: PlanFeature): boolean {
  return PLANS[plan].features.includes(feature);
}

/** The cheapest plan that includes a feature (the one a refusal points to). */
export function cheapestPlanWith(feature: PlanFeature): Plan {
  const plan = PLAN_IDS.map((id) => PLANS[id]).find((candidate) => candidate.features.includes(feature));
  if (!plan) throw new Error(`no plan includes ${feature}`);
  return plan;
}

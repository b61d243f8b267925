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

/** What a plan unlocks beyond managing locks and people. */
export const PLAN_FEATURES = ['rentals', 'apiAccess', 'reports', 'prioritySupport'] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

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
    features: ['reports'],
    wholesalePerLockMonth: 280,
  },
  business: {
    id: 'business',
    name: 'Business',
    pricePerLockMonth: 700,
    includedLocks: 0,
    maxLocks: null,
    features: ['rentals', 'apiAccess', 'reports', 'prioritySupport'],
    wholesalePerLockMonth: 490,
  },
};

/** Whether a plan includes a feature. */
export function planHas(plan: PlanId, feature: PlanFeature): boolean {
  return PLANS[plan].features.includes(feature);
}

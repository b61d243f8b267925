import { BILLING_CURRENCY, PLAN_FEATURES, PLAN_IDS, PLANS, planIdSchema } from '@latchkey/shared';
import { z } from 'zod';
import { defineCollection } from './registry';

/** A plan's price as the plan and upgrade screens show it (packages/shared plans.ts). */
const planPriceSchema = z.object({
  _id: planIdSchema,
  name: z.string(),
  /** Net per lock per month, in minor units of `currency` (VAT is added on the bill). */
  pricePerLockMonth: z.number().int(),
  currency: z.string(),
  /** Locks included at no charge. */
  includedLocks: z.number().int(),
  /** Most locks the plan allows; null for no limit. */
  maxLocks: z.number().int().nullable(),
  features: z.array(z.enum(PLAN_FEATURES)),
});

/**
 * `prices`: the plans' prices (features/subscriptions, from the plan catalogue in packages/shared
 * plans.ts that the plan and upgrade screens read and subscriptions charge), for any member,
 * read-only: prices change with a release, never through the API. What a reseller pays
 * (`wholesalePerLockMonth`) is left out: it is no portal's price.
 */
export const pricesCollection = defineCollection({
  name: 'prices',
  feature: 'subscriptions',
  // No route names one plan (list only); a plan is named by its id (free, pro, business).
  idKind: 'portalId',
  record: planPriceSchema,
  list: {
    access: 'member',
    summary: "The plans' prices per lock and month, cheapest first",
    filter: z.strictObject({}),
    handler: async () => {
      const items = PLAN_IDS.map((id) => {
        const plan = PLANS[id];
        return {
          _id: plan.id,
          name: plan.name,
          pricePerLockMonth: plan.pricePerLockMonth,
          currency: BILLING_CURRENCY,
          includedLocks: plan.includedLocks,
          maxLocks: plan.maxLocks,
          features: [...plan.features],
        };
      });
      return { items, total: items.length };
    },
  },
});

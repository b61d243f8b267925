import fs from 'node:fs';
import path from 'node:path';
import {
  PLAN_FEATURE_NAMES,
  PLAN_FEATURES,
  PLAN_IDS,
  PLANS,
  type PlanFeature,
  type PlanId,
} from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPlanChange } from '../src/features/billing/plan-history';
import { seedLapsedSubscription } from '../src/features/subscriptions/demo-subscription';
import { setPortalPaymentState } from '../src/features/subscriptions/subscriptions.repository';
import { addLock, rentalPortal, type RentalPortal } from './rental-helpers';
import { TestApp } from './test-app';

// Issue 19, item 9 ("Plans that tell the truth"): the plan page sold "Rentals and guest stays" and
// "API access" as Business-only, yet a Free portal published a listing (POST listing/new → 201):
// nothing called the function that checks a plan's features. The plan page lists
// PLAN_FEATURES; each must be refused by the server to a portal whose plan lacks it.

let t: TestApp;
beforeAll(async () => {
  // What production does (TestApp turns plan limits off for other features' tests).
  t = await TestApp.start({ PLAN_LOCK_LIMITS: 'true' });
});
afterAll(() => t.close());

const DAY_MS = 86_400_000;

/** A portal on a plan, paid up for a year (as a prepaid plan leaves it). */
async function portalOn(plan: PlanId): Promise<RentalPortal> {
  const admin = await t.signUp();
  const portal = { token: admin.token, portalId: admin.portalId, userId: admin.userId };
  if (plan !== 'free') {
    await recordPlanChange(t.app.db, portal.portalId, plan, new Date(Date.now() - DAY_MS).toISOString());
    await setPortalPaymentState(t.app.db, portal.portalId, {
      expireDate: new Date(Date.now() + 365 * DAY_MS).toISOString(),
    });
  }
  return portal;
}

const listingsOf = async (portal: RentalPortal) =>
  t.app.db.selectFrom('listings').select('id').where('portal_id', '=', portal.portalId).execute();

const newListing = (portal: RentalPortal, deviceId: string) =>
  t.request({
    method: 'POST',
    url: '/api3/listing/new',
    token: portal.token,
    payload: { title: 'Sea view flat', deviceIds: [deviceId], published: true },
  });

/**
 * For each feature the plan page can list, a request that starts something of it. A Record, so a
 * feature added to PLAN_FEATURES does not compile here until its gated request is named.
 */
const GATED: Record<PlanFeature, { route: string; call: (portal: RentalPortal) => Promise<number> }> = {
  rentals: {
    route: 'POST /listing/new',
    call: async (portal) => (await newListing(portal, (await addLock(t, portal)).id)).statusCode,
  },
};

describe('rentals are a Business feature, on the server too', () => {
  it('refuses a Free portal a listing with 402 naming Business, and stores nothing', async () => {
    const portal = await portalOn('free');
    const lock = await addLock(t, portal);
    const response = await newListing(portal, lock.id);
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({
      error: {
        code: 'payment_required',
        message:
          'Rentals and guest stays are part of the Business plan; this portal is on Free. Choose Business (Upgrade) to use them.',
      },
    });
    expect(await listingsOf(portal)).toEqual([]);
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('portal_id', '=', portal.portalId)
      .where('action', '=', 'listing.create')
      .execute();
    expect(audit).toEqual([]);
  });

  it('refuses a Pro portal too, naming its plan', async () => {
    const portal = await portalOn('pro');
    const response = await newListing(portal, (await addLock(t, portal)).id);
    expect(response.statusCode).toBe(402);
    expect(response.json().error.message).toContain('part of the Business plan; this portal is on Pro.');
    expect(await listingsOf(portal)).toEqual([]);
  });

  it('lets a paid-up Business portal publish a listing', async () => {
    const portal = await portalOn('business');
    const response = await newListing(portal, (await addLock(t, portal)).id);
    expect(response.statusCode).toBe(201);
    expect((await listingsOf(portal)).map((row) => row.id)).toEqual([response.json()._id]);
  });

  it('refuses a lapsed Business portal a new listing, and its existing listings keep working', async () => {
    const portal = await portalOn('business');
    const lock = await addLock(t, portal);
    const first = await newListing(portal, lock.id);
    expect(first.statusCode).toBe(201);
    await seedLapsedSubscription(t.app.db, portal.portalId, {
      plan: 'business',
      startedDaysAgo: 70,
      lapsedDaysAgo: 10,
    });
    const second = await newListing(portal, lock.id);
    expect(second.statusCode).toBe(402);
    expect(second.json().error.message).toBe(
      'Rentals and guest stays are part of the Business plan, which this portal has not paid for. What it already has keeps working; pay for the plan (Upgrade) to add more.',
    );
    expect(await listingsOf(portal)).toHaveLength(1);
    const listingId = first.json()._id as string;
    const read = await t.request({ method: 'GET', url: `/api3/listing/${listingId}`, token: portal.token });
    expect(read.statusCode).toBe(200);
    const publicPage = await t.request({ method: 'GET', url: `/api3/listing/${listingId}/public` });
    expect(publicPage.statusCode).toBe(200);
  });
});

describe('every feature the plan page lists is gated by the server', () => {
  const routesDir = path.join(import.meta.dirname, '../src/features');
  const routeFiles = fs
    .readdirSync(routesDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.routes.ts'))
    .map((file) => fs.readFileSync(path.join(routesDir, file), 'utf8'));

  it('lists on the plans only features of PLAN_FEATURES, each with a name', () => {
    for (const id of PLAN_IDS) {
      for (const feature of PLANS[id].features) expect(PLAN_FEATURES).toContain(feature);
    }
    for (const feature of PLAN_FEATURES) expect(PLAN_FEATURE_NAMES[feature]).toMatch(/\w/);
  });

  it.each(PLAN_FEATURES.map((feature) => [feature]))(
    '%s: a route calls the gate, and a Free portal is refused with 402',
    async (feature) => {
      // Some route passes this feature to the gate (statically: the call is in a routes file).
      expect(
        routeFiles.some(
          (source) => source.includes(`assertPlanIncludes(`) && source.includes(`'${feature}'`),
        ),
      ).toBe(true);
      // And the request that starts it is refused on Free, allowed on the plans that list it.
      const gated = GATED[feature];
      expect(await gated.call(await portalOn('free'))).toBe(402);
      for (const id of PLAN_IDS.filter((plan) => plan !== 'free')) {
        const expected = PLANS[id].features.includes(feature) ? [200, 201] : [402];
        expect(expected, `${gated.route} on ${id}`).toContain(await gated.call(await portalOn(id)));
      }
    },
  );
});

describe('the rental tests', () => {
  it('make their listings on a Business portal, so they hold with the plans enforced too', async () => {
    expect(await GATED.rentals.call(await rentalPortal(t))).toBe(201);
  });
});

describe('a deployment that sells no plans (PLAN_LOCK_LIMITS=false)', () => {
  it('withholds no feature: a Free portal publishes a listing', async () => {
    const open = await TestApp.start();
    try {
      const admin = await open.signUp();
      const portal = { token: admin.token, portalId: admin.portalId, userId: admin.userId };
      const response = await open.request({
        method: 'POST',
        url: '/api3/listing/new',
        token: portal.token,
        payload: { title: 'Sea view flat', deviceIds: [(await addLock(open, portal)).id] },
      });
      expect(response.statusCode).toBe(201);
    } finally {
      await open.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_FLAGS } from '@latchkey/shared';
import { makeMember, makeOwner, makeStaff } from './factories';
import { TestApp } from './test-app';
import { orderBody } from './sandbox-checkout';

// The platform console's rules (issue 20, item 1): platform staff only (but for the features list
// and the support banner), feature flags per deployment and per portal, a switched-off feature
// refusing its routes, finding a customer by their owner's email, support sessions seen by the
// portal's admins and gone once ended.
let t: TestApp;
let staff: Awaited<ReturnType<typeof makeStaff>>;
let owner: Awaited<ReturnType<typeof makeOwner>>;
let other: Awaited<ReturnType<typeof makeOwner>>;

beforeAll(async () => {
  t = await TestApp.start();
  staff = await makeStaff(t, { email: 'staff-console@example.com' });
  owner = await makeOwner(t, { email: 'clinic-owner@customer.example', portalName: 'Quiet Clinic' });
  other = await makeOwner(t, { email: 'bakery@elsewhere.example', portalName: 'Corner Bakery' });
});
afterAll(() => t.close());

const get = (url: string, token: string, portal?: string) =>
  t.request({ method: 'GET', url: `/api3/${url}`, token, portal });
const post = (url: string, token: string, payload: object) =>
  t.request({ method: 'POST', url: `/api3/${url}`, token, payload });

describe('platform staff only', () => {
  it('refuses a portal admin every system route but GET system/features', async () => {
    const systemRoutes = t.app.routeRegistry.filter(
      (route) => route.feature === 'platform' && route.url.startsWith('/api3/system/'),
    );
    expect(systemRoutes.length).toBeGreaterThan(5);
    for (const route of systemRoutes) {
      const url = route.url.replace(':portalId', owner.portalId);
      const response = await t.request({
        method: route.method as 'GET' | 'POST',
        url,
        token: owner.token,
        ...(route.method === 'POST' && { payload: { flag: 'shop', enabled: false } }),
      });
      if (route.url === '/api3/system/features') expect(response.statusCode, url).toBe(200);
      else expect(response.statusCode, `${route.method} ${url}`).toBe(403);
    }
    // Nothing was switched by the refused calls.
    const features = (await get('system/features', owner.token)).json();
    expect(features.enabled).toContain('shop');
  });
});

describe('finding a customer', () => {
  it("finds a portal by its owner's email, with its owner, standing and counts", async () => {
    const response = await get('system/portals?search=clinic-owner@customer', staff.token);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({
      _id: owner.portalId,
      name: 'Quiet Clinic',
      owner: { email: 'clinic-owner@customer.example' },
      plan: 'free',
      standing: 'free',
      lockCount: 0,
      peopleCount: 1,
      reseller: null,
    });
    // By the portal's name too; a search matching nothing answers an empty page.
    expect((await get('system/portals?search=bakery', staff.token)).json().items[0]._id).toBe(other.portalId);
    expect((await get('system/portals?search=nobody-here', staff.token)).json()).toEqual({
      items: [],
      total: 0,
    });
  });

  it('lists people across portals with their portals and roles', async () => {
    const member = await makeMember(t, owner.portalId, { email: 'nurse@customer.example', role: 'admin' });
    const page = (await get('system/adminUsers?search=customer.example&sortBy=email', staff.token)).json();
    expect(page.total).toBe(2);
    expect(page.items.map((u: { email: string }) => u.email)).toEqual([
      'clinic-owner@customer.example',
      'nurse@customer.example',
    ]);
    expect(page.items[1]).toMatchObject({
      _id: member.userId,
      platformRole: null,
      portals: [{ _id: owner.portalId, name: 'Quiet Clinic', role: 'admin', owner: false }],
    });
    const staffOnly = (
      await get('system/adminUsers?filterBy=platformRole&filterValue=superAdmin', staff.token)
    ).json();
    expect(staffOnly.items.map((u: { email: string }) => u.email)).toEqual(['staff-console@example.com']);
  });

  it("shows a portal's detail and 404s an unknown one", async () => {
    const detail = (await get(`system/portals/${owner.portalId}`, staff.token)).json();
    expect(detail.admins[0]).toMatchObject({ email: 'clinic-owner@customer.example', owner: true });
    expect(detail).toMatchObject({ locksOnline: 0, locksOffline: 0, supportSessions: [] });
    expect((await get('system/portals/no-such-portal', staff.token)).statusCode).toBe(404);
  });
});

describe('feature flags', () => {
  it('a portal override wins over the deployment value, which wins over the default', async () => {
    const enabledFor = async (token: string) =>
      (await get('system/features', token)).json().enabled as string[];
    expect(FEATURE_FLAGS.shop.default).toBe(true);
    expect(await enabledFor(owner.token)).toContain('shop');

    // Off for the deployment: off everywhere…
    expect(
      (await post('system/featureFlags', staff.token, { flag: 'shop', enabled: false })).statusCode,
    ).toBe(200);
    expect(await enabledFor(owner.token)).not.toContain('shop');
    expect(await enabledFor(other.token)).not.toContain('shop');
    // …but on for the one portal that overrides it.
    const switched = await post(`system/portals/${owner.portalId}/featureFlags`, staff.token, {
      flag: 'shop',
      enabled: true,
    });
    expect(switched.statusCode).toBe(200);
    expect(switched.json().flags.find((f: { id: string }) => f.id === 'shop')).toMatchObject({
      deployment: false,
      portal: true,
      enabled: true,
      source: 'portal',
    });
    expect(await enabledFor(owner.token)).toContain('shop');
    expect(await enabledFor(other.token)).not.toContain('shop');

    // Dropping both values returns to the default.
    await post(`system/portals/${owner.portalId}/featureFlags`, staff.token, { flag: 'shop', enabled: null });
    await post('system/featureFlags', staff.token, { flag: 'shop', enabled: null });
    expect(await enabledFor(other.token)).toContain('shop');
    // The portal's own change log says who switched what.
    const log = (await get('portal/audit', owner.token)).json();
    expect(JSON.stringify(log)).toContain('feature_flag.portal');
  });

  it('refuses an unknown flag and an unknown portal', async () => {
    expect(
      (await post('system/featureFlags', staff.token, { flag: 'teleport', enabled: true })).statusCode,
    ).toBe(400);
    expect(
      (await post('system/portals/no-such-portal/featureFlags', staff.token, { flag: 'shop', enabled: true }))
        .statusCode,
    ).toBe(404);
  });

  it('a switched-off feature refuses its routes with feature_disabled, and nothing is stored', async () => {
    await post(`system/portals/${owner.portalId}/featureFlags`, staff.token, {
      flag: 'rentals',
      enabled: false,
    });
    const listing = await post('listing/new', owner.token, { title: 'Flat', deviceIds: ['x'] });
    expect(listing.statusCode).toBe(403);
    expect(listing.json().error.code).toBe('feature_disabled');
    expect(listing.json().error.message).toMatch(/Rentals is switched off/);
    expect((await get('listing', owner.token)).json().total).toBe(0);

    await post('system/featureFlags', staff.token, { flag: 'shop', enabled: false });
    const order = await t.request({
      method: 'POST',
      url: '/api3/stripe/order',
      payload: orderBody([{ productId: 'smart-lock', quantity: 1 }], 'buyer@example.com'),
    });
    expect(order.statusCode, order.body).toBe(403);
    expect(order.json().error.code).toBe('feature_disabled');
    await post('system/featureFlags', staff.token, { flag: 'shop', enabled: null });
    await post(`system/portals/${owner.portalId}/featureFlags`, staff.token, {
      flag: 'rentals',
      enabled: null,
    });
  });
});

describe('support sessions', () => {
  it("are visible to the portal's admins while they run, and gone once ended", async () => {
    expect((await get('portal/supportSession', owner.token)).json()).toEqual({ session: null });
    const started = await post(`user/${owner.userId}/session`, staff.token, { originUrl: '/app/platform' });
    expect(started.statusCode).toBe(200);
    const supportToken = started.json().token as string;

    const seen = (await get('portal/supportSession', owner.token)).json();
    expect(seen.session).toMatchObject({
      staff: { email: 'staff-console@example.com' },
      person: { email: 'clinic-owner@customer.example' },
    });
    expect(Date.parse(seen.session.expiresAt)).toBeGreaterThan(Date.now());
    // Another portal sees nothing of it.
    expect((await get('portal/supportSession', other.token)).json()).toEqual({ session: null });
    // Staff see it on the portal's detail.
    const detail = (await get(`system/portals/${owner.portalId}`, staff.token)).json();
    expect(detail.supportSessions).toHaveLength(1);

    // Ending it (the support token's sign-out) ends the record, and the person stays signed in.
    expect((await post('auth/logout', supportToken, {})).statusCode).toBe(204);
    expect((await get('portal/supportSession', owner.token)).json()).toEqual({ session: null });
  });
});

describe('background work', () => {
  it('shows failed mail and makes it due again, audited', async () => {
    const [mail] = await t.app.db
      .insertInto('mail_outbox')
      .values({
        id: 'failed-mail-1',
        portal_id: owner.portalId,
        template: 'device_invitation',
        to_address: 'guest@example.com',
        subject: 'Your code',
        text_body: 'x',
        html_body: 'x',
        attempts: 8,
        next_attempt_at: new Date().toISOString(),
        last_error: 'connection refused',
        failed_at: new Date().toISOString(),
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .execute();
    const work = (await get('system/work', staff.token)).json();
    expect(work.mail.failed).toBeGreaterThanOrEqual(1);
    expect(work.mail.recentFailures[0]).toMatchObject({ _id: mail!.id, lastError: 'connection refused' });

    const retried = await post('system/work/retry', staff.token, { kind: 'mail', id: mail!.id });
    expect(retried.statusCode).toBe(204);
    const row = await t.app.db
      .selectFrom('mail_outbox')
      .select(['failed_at', 'attempts'])
      .where('id', '=', mail!.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_at: null, attempts: 0 });
    const audit = await t.app.db
      .selectFrom('platform_audit')
      .select(['action', 'actor_user_id'])
      .where('entity_id', '=', mail!.id)
      .execute();
    expect(audit).toEqual([{ action: 'mail.retry', actor_user_id: staff.userId }]);
    expect(
      (await post('system/work/retry', staff.token, { kind: 'feed', id: 'no-such-feed' })).statusCode,
    ).toBe(404);
  });
});

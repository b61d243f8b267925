import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, seedDemoPortal } from '../src/demo/seed-demo';
import { TestApp } from './test-app';

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(() => t.close());

describe('demo data', () => {
  it('creates the demo portals once, with working sign-ins', async () => {
    expect(await seedDemoPortal(t.app.db, t.app.log)).toBe(true);
    expect(await seedDemoPortal(t.app.db, t.app.log)).toBe(false);

    const admin = await t.login(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password);
    const session = (await t.request({ method: 'GET', url: '/api3/auth', token: admin.json().token })).json();
    expect(session.portal).toMatchObject({
      name: 'Demo Apartments',
      timeZone: 'Europe/Berlin',
      current: true,
    });
    expect(session.memberships.map((m: { portal: { name: string } }) => m.portal.name)).toEqual([
      'Demo Apartments',
      'Harbor Offices',
    ]);

    const user = await t.login(DEMO_ACCOUNTS.user.email, DEMO_ACCOUNTS.user.password);
    const userSession = (
      await t.request({ method: 'GET', url: '/api3/auth', token: user.json().token })
    ).json();
    expect(userSession).toMatchObject({
      roles: ['user'],
      portalOwned: null,
      portal: { name: 'Demo Apartments' },
    });
  });
});

describe('large benchmark portal', () => {
  it('seeds the requested sizes, with a working owner and consistent access', async () => {
    const { seedLargePortal } = await import('../src/demo/seed-large');
    const small = await seedLargePortal(t.app.db, { devices: 40, users: 120, credentials: 200, groups: 4 });
    const login = await t.login(small.ownerEmail, small.password);
    expect(login.statusCode).toBe(200);
    const token = login.json().token;
    const get = (url: string) =>
      t.request({ method: 'GET', url: `/api3/${url}`, token, portal: small.portalId }).then((r) => r.json());
    expect((await get('portal/devices?limit=1')).total).toBe(40);
    expect((await get('portal/users?limit=1')).total).toBe(120);
    expect((await get('portal/rfids?limit=1')).total).toBe(80);
    const [group] = (await get('portal/groups?limit=1')).items;
    expect(group).toMatchObject({ deviceCount: 10 });
    const [lock] = (await get('portal/devices?limit=1')).items;
    const access = await get(`portal/device/${lock._id}/access`);
    expect(access.people.length).toBeGreaterThan(0);
  });
});

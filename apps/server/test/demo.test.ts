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

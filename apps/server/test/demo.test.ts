import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, seedDemoPortal } from '../src/demo/seed-demo';
import { TestApp } from './test-app';

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start();
});
afterAll(() => t.close());

const demoMail = () => ({ publicUrl: 'http://localhost:3000', throttle: t.app.mailThrottle });

describe('demo data', () => {
  it('creates the demo portals once, with working sign-ins', async () => {
    const connected = await seedDemoPortal(t.app.db, t.app.log, demoMail());
    // The connected locks (not the keypad-only code locks) come back with their secrets.
    expect(connected?.map((lock) => lock.name).sort()).toEqual([
      'Flat 1.2',
      'Lisbon studio',
      'Lobby door',
      'Main entrance',
    ]);
    expect(await seedDemoPortal(t.app.db, t.app.log, demoMail())).toBeNull();
    // The demo reseller shows its customers the Keystone Access brand (issue 20, item 6); the
    // deployment's content pages are there from the start.
    const brands = await t.app.db.selectFrom('resellers').select(['name', 'brand']).execute();
    expect(brands).toContainEqual({ name: 'Keystone Integrators', brand: 'keystone' });
    expect((await t.request({ method: 'GET', url: '/api3/info/privacy' })).statusCode).toBe(200);

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

    const token = admin.json().token;
    const get = (url: string) =>
      t.request({ method: 'GET', url: `/api3/${url}`, token }).then((r) => r.json());
    expect((await get('portal/keys')).total).toBe(2);
    expect((await get('portal/fingerprints')).total).toBe(1);
    expect((await get('portal/rfids')).total).toBe(1);
    expect(await get('portal/code/company')).toEqual([expect.objectContaining({ name: 'Parcel delivery' })]);
    const locks = (await get('portal/devices?limit=50')).items as { _id: string; name: string }[];
    expect(locks.map((l) => l.name)).toContain('Garden shed');
    const flat = locks.find((l) => l.name === 'Flat 1.2')!;
    const access = await get(`portal/device/${flat._id}/access`);
    expect(access.others).toContainEqual(
      expect.objectContaining({ holderType: 'guest', name: 'Guest: Grace Guest', canOpen: true }),
    );

    const user = await t.login(DEMO_ACCOUNTS.user.email, DEMO_ACCOUNTS.user.password);
    const userSession = (
      await t.request({ method: 'GET', url: '/api3/auth', token: user.json().token })
    ).json();
    expect(userSession).toMatchObject({
      roles: ['user'],
      portalOwned: null,
      portal: { name: 'Demo Apartments' },
    });

    // Platform staff reach the dev mailbox, where the demo's mail waits.
    const staff = await t.login(DEMO_ACCOUNTS.staff.email, DEMO_ACCOUNTS.staff.password);
    const staffSession = (
      await t.request({ method: 'GET', url: '/api3/auth', token: staff.json().token })
    ).json();
    expect(staffSession.user.platformRole).toBe('superAdmin');
    const mailbox = await t.request({ method: 'GET', url: '/api3/admin/mail', token: staff.json().token });
    expect(mailbox.statusCode).toBe(200);
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

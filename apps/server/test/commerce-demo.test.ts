import type { PortalSubscription, Product } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, seedDemoPortal } from '../src/demo/seed-demo';
import { TestApp } from './test-app';

/** The commerce part of the demo data: the shop's catalogue and a lapsed portal with its banner. */
let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({ PAYMENTS_SWEEP_MS: '0' });
  await seedDemoPortal(t.app.db, t.app.log, {
    publicUrl: 'http://localhost:3000',
    throttle: t.app.mailThrottle,
  });
});
afterAll(() => t.close());

describe('commerce demo data', () => {
  it('has a product catalogue with stock', async () => {
    const products = (await t.request({ method: 'GET', url: '/api3/product' })).json<Product[]>();
    expect(products.map((p) => p.kind).sort()).toEqual([
      'bridge',
      'card',
      'fob',
      'keypad',
      'lock',
      'lock',
      'lock',
      'reader',
    ]);
    expect(products.every((p) => p.available > 0 && p.price > 0)).toBe(true);
  });

  it('has a lapsed portal whose admin sees it lapsed and may not add locks', async () => {
    const login = await t.login(DEMO_ACCOUNTS.lapsedAdmin.email, DEMO_ACCOUNTS.lapsedAdmin.password);
    const token = login.json().token as string;
    const subscription = (
      await t.request({ method: 'GET', url: '/api3/portal/subscription', token })
    ).json<PortalSubscription>();
    expect(subscription).toMatchObject({
      plan: 'pro',
      standing: 'lapsed',
      current: false,
      lockCount: 2,
      stripe: { status: 'canceled' },
    });
    const lock = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token,
      payload: { name: 'Studio 3', model: 'generic-smartlock', timeZone: 'Europe/Berlin' },
    });
    expect(lock.statusCode).toBe(402);
    // The other demo portals are in good standing.
    const admin = (await t.login(DEMO_ACCOUNTS.admin.email, DEMO_ACCOUNTS.admin.password)).json()
      .token as string;
    const demo = (
      await t.request({ method: 'GET', url: '/api3/portal/subscription', token: admin })
    ).json<PortalSubscription>();
    expect(demo.standing).not.toBe('lapsed');
  });
});

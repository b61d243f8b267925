import { API_KEY_SCOPES } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../src/features/shop/catalogue';
import { makeOwner, makeStaff } from './factories';
import { TestApp } from './test-app';

/**
 * The platform collections (issue 21, item 3): `error` (client error reports) and `inventory` (the
 * shop's stock) are the deployment's records, for platform staff alone, through the same services
 * as system/errors and system/inventory. A portal's admin, and any API key, is refused. The
 * registry-driven specs and isolation test walk every route; these are the answers.
 */

let t: TestApp;
let staff: Awaited<ReturnType<typeof makeStaff>>;
let owner: Awaited<ReturnType<typeof makeOwner>>;
let key: string;

beforeAll(async () => {
  t = await TestApp.start();
  await seedCatalogue(t.app.db);
  staff = await makeStaff(t);
  owner = await makeOwner(t);
  const created = await t.request({
    method: 'POST',
    url: '/api3/portal/apikeys',
    token: owner.token,
    payload: { name: 'Every scope', scopes: [...API_KEY_SCOPES] },
  });
  expect(created.statusCode, created.body).toBe(201);
  key = created.json().secret;
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
  t.request({ method, url: `/api3/${url}`, token, ...(payload && { payload }) });

/** The platform change log's entries of one action, newest first. */
const platformAudit = (action: string) =>
  t.app.db
    .selectFrom('platform_audit')
    .selectAll()
    .where('action', '=', action)
    .orderBy('created_at', 'desc')
    .execute();

describe('error', () => {
  it('lists, reads and resolves a report as system/errors does, in the platform change log', async () => {
    const reported = await t.request({
      method: 'POST',
      url: '/api3/clientErrors',
      remoteAddress: '10.8.0.1',
      payload: {
        message: 'RangeError: Invalid time value',
        stack:
          'RangeError: Invalid time value\n    at formatStay (https://app.example/assets/stays-1.js:3:9)',
        route: '/app/rentals',
        build: '2.0.0',
        userAgent: 'Chrome',
      },
    });
    expect(reported.statusCode, reported.body).toBe(202);
    const id = reported.json()._id as string;

    const listed = await call('POST', 'error', staff.token, { search: 'Invalid time', status: 'open' });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().items.map((item: { _id: string }) => item._id)).toEqual([id]);
    expect(listed.json().items[0].stack).toBeUndefined();

    const one = await call('GET', `error/${id}`, staff.token);
    expect(one.json()).toMatchObject({
      _id: id,
      status: 'open',
      stack: expect.stringContaining('formatStay'),
    });

    const resolved = await call('POST', `error/${id}`, staff.token, { status: 'resolved' });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(resolved.json()).toMatchObject({ status: 'resolved', resolvedBy: { _id: staff.userId } });
    expect((await call('GET', `system/errors/${id}`, staff.token)).json().status).toBe('resolved');
    const [entry] = await platformAudit('client_error.resolve');
    expect(entry).toMatchObject({ actor_user_id: staff.userId, entity_id: id });

    expect(
      (await call('POST', 'error', staff.token, { status: 'open', search: 'Invalid time' })).json().items,
    ).toEqual([]);
  });

  it('refuses a portal’s admin and any API key, and bad input changes nothing', async () => {
    expect((await call('POST', 'error', owner.token, {})).statusCode).toBe(403);
    const keyed = await call('POST', 'error', key, {});
    expect(keyed.statusCode).toBe(403);
    expect(keyed.json().error.code).toBe('api_key_not_allowed');
    const listed = (await call('POST', 'error', staff.token, {})).json().items as { _id: string }[];
    const bad = await call('POST', `error/${listed[0]!._id}`, staff.token, { status: 'deleted' });
    expect(bad.statusCode).toBe(400);
    expect((await call('GET', `error/${listed[0]!._id}`, staff.token)).json().status).toBe('resolved');
  });
});

describe('inventory', () => {
  it('lists and reads the stock as system/inventory does, and a count sets the units on hand', async () => {
    const listed = await call('POST', 'inventory', staff.token, {});
    expect(listed.statusCode, listed.body).toBe(200);
    const rest = (await call('GET', 'system/inventory', staff.token)).json();
    expect(listed.json()).toEqual({ items: rest, total: rest.length });

    const item = await call('GET', 'inventory/smart-lock', staff.token);
    expect(item.json()).toEqual(rest.find((entry: { _id: string }) => entry._id === 'smart-lock'));
    expect((await call('GET', 'inventory/no-such-product', staff.token)).statusCode).toBe(404);

    const counted = await call('POST', 'inventory/smart-lock', staff.token, { onHand: 42, reason: 'Count' });
    expect(counted.statusCode, counted.body).toBe(200);
    expect(counted.json()).toMatchObject({
      _id: 'smart-lock',
      onHand: 42,
      available: 42 - item.json().reserved,
    });
    // In the money change log, as every stock change.
    const entry = await t.app.db
      .selectFrom('commerce_audit')
      .selectAll()
      .where('action', '=', 'inventory.adjust')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actor_user_id: staff.userId, entity_id: 'smart-lock' });
  });

  it('refuses a portal’s admin and any API key; a negative count is a 400 that changes nothing', async () => {
    expect(
      (await call('POST', 'inventory/smart-lock', owner.token, { onHand: 1, reason: 'x' })).statusCode,
    ).toBe(403);
    expect((await call('GET', 'inventory/smart-lock', key)).json().error.code).toBe('api_key_not_allowed');
    const before = (await call('GET', 'inventory/smart-lock', staff.token)).json();
    expect(
      (await call('POST', 'inventory/smart-lock', staff.token, { onHand: -1, reason: 'Oops' })).statusCode,
    ).toBe(400);
    expect((await call('GET', 'inventory/smart-lock', staff.token)).json()).toEqual(before);
  });
});

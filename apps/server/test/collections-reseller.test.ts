import crypto from 'node:crypto';
import { API_KEY_SCOPES, type ResellerAccount } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp } from './test-app';

/**
 * The `reseller` account collection (issue 21, item 3): the customers of the signed-in person's
 * reseller account, as GET reseller lists them, through the same service. Any signed-in person
 * calls it about their own account: another reseller, someone without a reseller account, an API
 * key and nobody are refused. Opening the account moved to POST reseller/new (POST reseller is the
 * collection's list). The registry-driven specs and isolation test walk every route; these are the
 * answers.
 */

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({ LOGIN_LIMIT_PER_IP: '1000', SIGNUP_LIMIT_PER_IP: '1000' });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST';
const call = (method: Method, url: string, token?: string, payload?: object) =>
  t.request({ method, url: `/api3/${url}`, token, ...(payload && { payload }) });

/** A person with a reseller account and one customer portal they made for it. */
async function resellerWithCustomer(companyName: string, portalName: string) {
  const person = await t.signUp();
  const opened = await call('POST', 'reseller/new', person.token, { companyName, country: 'DE' });
  expect(opened.statusCode, opened.body).toBe(201);
  const customer = await call('POST', 'reseller/customer', person.token, {
    portalName,
    adminEmail: `customer-${crypto.randomUUID().slice(0, 8)}@example.com`,
  });
  expect(customer.statusCode, customer.body).toBe(201);
  return { ...person, customerId: customer.json().portalId as string };
}

describe('reseller', () => {
  it("lists and reads the reseller's customers exactly as GET reseller shows them", async () => {
    const r = await resellerWithCustomer('Keystone Integrators', 'Lakeside Clinic');
    const second = await call('POST', 'reseller/customer', r.token, {
      portalName: 'Harbor Offices',
      adminEmail: `harbor-${crypto.randomUUID().slice(0, 8)}@example.com`,
    });
    expect(second.statusCode, second.body).toBe(201);
    const { customers } = (await call('GET', 'reseller', r.token)).json<ResellerAccount>();
    expect(customers.map((c) => c.name)).toEqual(['Harbor Offices', 'Lakeside Clinic']);

    const listed = await call('POST', 'reseller', r.token, {});
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toEqual({ items: customers, total: 2 });

    const one = await call('GET', `reseller/${r.customerId}`, r.token);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual(customers.find((c) => c.portalId === r.customerId));

    // The list's filter takes nothing: an unknown field is a mistake, not ignored.
    expect((await call('POST', 'reseller', r.token, { name: 'Lakeside' })).statusCode).toBe(400);
  });

  it("refuses another reseller's customer and a portal that is no customer (404)", async () => {
    const r = await resellerWithCustomer('Keystone Integrators', 'Lakeside Clinic');
    const other = await resellerWithCustomer('Other Installs', 'Other Clinic');
    const foreign = await call('GET', `reseller/${other.customerId}`, r.token);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('Other Clinic');
    // The reseller's own portal (from signing up) is theirs, but no customer of the account.
    expect((await call('GET', `reseller/${r.portalId}`, r.token)).statusCode).toBe(404);
    const theirs = (await call('POST', 'reseller', other.token, {})).json();
    expect(theirs.items.map((c: { portalId: string }) => c.portalId)).toEqual([other.customerId]);
  });

  it('answers 404 to a person without a reseller account, as GET reseller does, and 401 to nobody', async () => {
    const r = await resellerWithCustomer('Keystone Integrators', 'Lakeside Clinic');
    const person = await t.signUp();
    expect((await call('GET', 'reseller', person.token)).statusCode).toBe(404);
    expect((await call('POST', 'reseller', person.token, {})).statusCode).toBe(404);
    expect((await call('GET', `reseller/${r.customerId}`, person.token)).statusCode).toBe(404);
    expect((await call('POST', 'reseller', undefined, {})).statusCode).toBe(401);
    expect((await call('GET', `reseller/${r.customerId}`)).statusCode).toBe(401);
  });

  it("refuses an API key, whatever its scopes, even of the reseller's own portal", async () => {
    const r = await resellerWithCustomer('Keystone Integrators', 'Lakeside Clinic');
    const created = await call('POST', 'portal/apikeys', r.token, {
      name: 'Every scope',
      scopes: [...API_KEY_SCOPES],
    });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json().secret as string;
    for (const response of [
      await call('POST', 'reseller', key, {}),
      await call('GET', `reseller/${r.customerId}`, key),
    ]) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json().error.code).toBe('api_key_not_allowed');
    }
  });
});

describe('POST reseller/new', () => {
  it('opens a reseller account once; a second one is refused (409)', async () => {
    const person = await t.signUp();
    const opened = await call('POST', 'reseller/new', person.token, { companyName: 'New Co', country: 'DE' });
    expect(opened.statusCode, opened.body).toBe(201);
    expect(opened.json()).toMatchObject({ name: 'New Co', country: 'DE' });
    expect((await call('POST', 'reseller', person.token, {})).json()).toEqual({ items: [], total: 0 });
    const again = await call('POST', 'reseller/new', person.token, { companyName: 'Twice', country: 'AT' });
    expect(again.statusCode).toBe(409);
    expect((await call('GET', 'reseller', person.token)).json().reseller.name).toBe('New Co');
  });
});

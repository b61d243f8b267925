import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ERROR_REPORTS_PER_MINUTE } from '../src/features/client-errors/client-errors.routes';
import { makeOwner, makeStaff } from './factories';
import { TestApp } from './test-app';

// Client error reports (issue 21, the `error` collection; docs/decisions.md "Client error reports"):
// anyone reports, one row per fingerprint with a count, limited per address and in size; platform
// staff list, read and resolve, in the platform change log.

const report = (overrides: Record<string, string> = {}) => ({
  message: "TypeError: Cannot read properties of undefined (reading 'name')",
  stack:
    "TypeError: Cannot read properties of undefined (reading 'name')\n    at LockPage (https://app.example/assets/lock-page-abc.js:12:34)\n    at renderWithHooks (https://app.example/assets/react.js:1:2)",
  route: '/app/device/1',
  build: '1.2.3',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131',
  ...overrides,
});

describe('client error reports', () => {
  let t: TestApp;
  let staff: Awaited<ReturnType<typeof makeStaff>>;
  let owner: Awaited<ReturnType<typeof makeOwner>>;
  let address = 0;
  const send = (payload: unknown, remoteAddress = `10.9.0.${++address}`, token?: string) =>
    t.request({
      method: 'POST',
      url: '/api3/clientErrors',
      payload: payload as object,
      remoteAddress,
      token,
    });

  beforeAll(async () => {
    t = await TestApp.start();
    staff = await makeStaff(t);
    owner = await makeOwner(t);
  });
  afterAll(() => t.close());

  it('counts the same error on one row, whatever the column, address or session', async () => {
    const first = await send(report());
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json().count).toBe(1);
    // Another browser: the same line, another column and another address, signed in.
    const again = await send(
      report({ stack: report().stack.replace(':12:34', ':12:99'), userAgent: 'Firefox' }),
      '10.9.9.9',
      owner.token,
    );
    expect(again.json()).toEqual({ _id: first.json()._id, count: 2 });
    // Another build is another error.
    const otherBuild = await send(report({ build: '1.2.4' }));
    expect(otherBuild.json()._id).not.toBe(first.json()._id);

    const list = await t.request({
      method: 'GET',
      url: '/api3/system/errors?search=reading',
      token: staff.token,
    });
    expect(list.statusCode).toBe(200);
    const row = list.json().items.find((item: { _id: string }) => item._id === first.json()._id);
    expect(row).toMatchObject({
      count: 2,
      status: 'open',
      topFrame: 'LockPage (https://app.example/assets/lock-page-abc.js:12)',
      route: '/app/device/1',
      build: '1.2.3',
    });
    expect(row.lastSeen >= row.firstSeen).toBe(true);
  });

  it('refuses a report without a message, with control characters, or too large', async () => {
    expect((await send({ stack: 'x' })).statusCode).toBe(400);
    expect((await send(report({ message: 'a\u0000b' }))).statusCode).toBe(400);
    expect((await send(report({ message: 'x'.repeat(1001) }))).statusCode).toBe(400);
    expect((await send(report({ stack: 'x'.repeat(8001) }))).statusCode).toBe(400);
    // Past the body limit, before validation.
    const huge = await send({ ...report(), padding: 'x'.repeat(100_000) });
    expect(huge.statusCode).toBe(413);
    const all = await t.request({
      method: 'GET',
      url: '/api3/system/errors?search=a%00b',
      token: staff.token,
    });
    expect(all.statusCode).toBe(400);
  });

  it('limits reports per address (429 with Retry-After), not per error', async () => {
    const from = '10.8.8.8';
    for (let i = 0; i < CLIENT_ERROR_REPORTS_PER_MINUTE; i += 1) {
      expect((await send(report({ message: `Error ${i}` }), from)).statusCode).toBe(202);
    }
    const refused = await send(report({ message: 'One too many' }), from);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    const list = await t.request({
      method: 'GET',
      url: '/api3/system/errors?search=One%20too%20many',
      token: staff.token,
    });
    expect(list.json().total).toBe(0);
    // Another address still gets through.
    expect((await send(report({ message: 'From elsewhere' }), '10.8.8.9')).statusCode).toBe(202);
  });

  it('lets staff resolve an error (platform change log), and a new sighting opens it again', async () => {
    const sent = await send(report({ message: 'ReferenceError: lockName is not defined' }));
    const id = sent.json()._id as string;
    const resolved = await t.request({
      method: 'POST',
      url: `/api3/system/errors/${id}`,
      token: staff.token,
      payload: { status: 'resolved' },
    });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json()).toMatchObject({ status: 'resolved', resolvedBy: { _id: staff.userId } });
    expect(resolved.json().stack).toContain('LockPage');
    const audit = await t.app.db
      .selectFrom('platform_audit')
      .selectAll()
      .where('entity_id', '=', id)
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual(['client_error.resolve']);

    const openOnly = await t.request({
      method: 'GET',
      url: '/api3/system/errors?status=open',
      token: staff.token,
    });
    expect(openOnly.json().items.map((item: { _id: string }) => item._id)).not.toContain(id);

    const seenAgain = await send(report({ message: 'ReferenceError: lockName is not defined' }));
    expect(seenAgain.json()).toEqual({ _id: id, count: 2 });
    const detail = await t.request({ method: 'GET', url: `/api3/system/errors/${id}`, token: staff.token });
    expect(detail.json()).toMatchObject({ status: 'open', resolvedAt: null, resolvedBy: null });
  });

  it('is for platform staff only', async () => {
    expect(
      (await t.request({ method: 'GET', url: '/api3/system/errors', token: owner.token })).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api3/system/errors' })).statusCode).toBe(401);
  });
});

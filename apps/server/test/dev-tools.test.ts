import { DEVELOPER_CALL_MAX_BODY_CHARS, sealProbeDigest } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeAnswer, innerTargetOf } from '../src/features/dev-tools/developer-call.service';
import { makeMember, makeOwner, makeStaff } from './factories';
import { TestApp } from './test-app';

// Developer tools (issue 20, item 3): the API console's developer call runs any call as the person
// who sends it, for platform staff only, audited; the /test/api page's public routes.

let t: TestApp;
let owner: Awaited<ReturnType<typeof makeOwner>>;
let other: Awaited<ReturnType<typeof makeOwner>>;
let basic: Awaited<ReturnType<typeof makeMember>>;
let staff: Awaited<ReturnType<typeof makeStaff>>;
let deviceId: string;

const URL = '/api3/system/developerCall';
const call = (token: string, payload: Record<string, unknown>, extra: { remoteAddress?: string } = {}) =>
  t.request({ method: 'POST', url: URL, token, payload, ...extra });

beforeAll(async () => {
  t = await TestApp.start();
  owner = await makeOwner(t, { portalName: 'Harbor View' });
  other = await makeOwner(t, { portalName: 'Other tenant' });
  basic = await makeMember(t, owner.portalId);
  staff = await makeStaff(t);
  const created = await t.request({
    method: 'POST',
    url: '/api3/portal/device/new',
    token: owner.token,
    payload: { name: 'Front door', model: 'latchkey-sim', timeZone: 'UTC' },
  });
  deviceId = created.json().device._id;
});
afterAll(() => t.close());

describe('POST system/developerCall: who may run it', () => {
  it('is 401 signed out, and 403 for a portal admin, a basic user and staff acting as someone', async () => {
    const payload = { method: 'GET', path: 'portal/devices' };
    expect((await t.request({ method: 'POST', url: URL, payload })).statusCode).toBe(401);
    expect((await call(owner.token, payload)).statusCode).toBe(403);
    expect((await call(basic.token, payload)).statusCode).toBe(403);
    // In a support session staff have the person's rights, not their own: no console.
    const session = await t.request({
      method: 'POST',
      url: `/api3/user/${owner.userId}/session`,
      token: staff.token,
      payload: { originUrl: '/app' },
    });
    expect(session.statusCode, session.body).toBe(200);
    expect((await call(session.json().token, payload)).statusCode).toBe(403);
  });
});

describe('POST system/developerCall: the inner call', () => {
  it('runs as the caller, in the portal named, and answers status, headers, timing and body', async () => {
    const response = await call(staff.token, {
      method: 'GET',
      path: 'portal/devices',
      portalOverride: owner.portalId,
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json();
    expect(result.status).toBe(200);
    expect(result.bodyKind).toBe('json');
    expect(result.headers['content-type']).toMatch(/application\/json/);
    expect(result.durationMs).toBeGreaterThan(0);
    expect(result.portalId).toBe(owner.portalId);
    expect(JSON.stringify(result.body)).toContain(deviceId);

    const me = (await call(staff.token, { method: 'GET', path: '/api3/auth' })).json();
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(staff.email);
  });

  it("keeps the inner route's own checks: no portal, no portal data; sealed routes want their envelope", async () => {
    // Staff have no portal of their own: a portal route refuses them without an override.
    const noPortal = (await call(staff.token, { method: 'GET', path: 'portal/devices' })).json();
    expect(noPortal.status).toBe(403);
    const unknownPortal = (
      await call(staff.token, { method: 'GET', path: 'portal/devices', portalOverride: 'no-such-portal' })
    ).json();
    expect(unknownPortal.status).toBe(403);
    expect(unknownPortal.body.error.code).toBe('portal_override_denied');
    const plain = (
      await call(staff.token, {
        method: 'POST',
        path: 'auth/passwordVerify',
        body: JSON.stringify({ password: 'staff passphrase' }),
      })
    ).json();
    expect(plain.status).toBe(400);
    expect(plain.body.error.message).toMatch(/sealed envelope/);
  });

  it('passes 404 and 400 answers through as data, not as its own error', async () => {
    const missing = await call(staff.token, {
      method: 'GET',
      path: 'portal/device/00000000-0000-4000-8000-000000000000',
      portalOverride: owner.portalId,
    });
    expect(missing.statusCode).toBe(200);
    expect(missing.json().status).toBe(404);
    expect(missing.json().body.error.code).toBe('not_found');
    // The live channel's socket route, called without an upgrade, answers rather than hangs.
    const live = await call(staff.token, { method: 'GET', path: 'live' });
    expect(live.statusCode).toBe(200);
    expect(live.json().status).toBeGreaterThanOrEqual(400);
    const nowhere = await call(staff.token, { method: 'DELETE', path: 'no/such/route' });
    expect(nowhere.statusCode).toBe(200);
    expect(nowhere.json().status).toBe(404);
    const invalid = await call(staff.token, {
      method: 'POST',
      path: 'portal/group',
      body: '{"name": ""}',
      portalOverride: owner.portalId,
    });
    expect(invalid.statusCode).toBe(200);
    expect(invalid.json().status).toBe(400);
  });

  it('changes what the caller may change, with a body', async () => {
    const created = (
      await call(staff.token, {
        method: 'POST',
        path: 'portal/group',
        body: JSON.stringify({ name: 'Made from the console' }),
        portalOverride: owner.portalId,
      })
    ).json();
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const groups = await t.request({ method: 'GET', url: '/api3/portal/groups', token: owner.token });
    expect(groups.body).toContain('Made from the console');
  });

  it('comes from the caller’s address, so per-address limits count the caller', async () => {
    const echo = (
      await call(staff.token, { method: 'GET', path: 'about/client' }, { remoteAddress: '10.9.8.7' })
    ).json();
    expect(echo.status).toBe(200);
    expect(echo.body.clientAddress).toBe('10.9.8.7');
  });
});

describe('POST system/developerCall: what it refuses', () => {
  it.each([
    ['../auth'],
    ['portal/../../auth'],
    ['%2e%2e/%2e%2e/auth'],
    ['portal/%2e%2e%2f%2e%2e%2fauth'],
    ['http://example.com/api3/auth'],
    ['//example.com/api3/auth'],
    ['..\\auth'],
    ['javascript:alert(1)'],
  ])('refuses %s, a path outside /api3 (400)', async (path) => {
    const response = await call(staff.token, { method: 'GET', path });
    expect(response.statusCode, response.body).toBe(400);
  });

  it.each([
    ['system/developerCall'],
    ['/api3/system/developerCall'],
    ['SYSTEM/DeveloperCall/'],
    ['system//developerCall'],
    ['system/%64eveloperCall'],
    ['system%2FdeveloperCall'],
    ['portal/../system/developerCall'],
  ])('refuses to run itself as %s (400)', async (path) => {
    const response = await call(staff.token, {
      method: 'POST',
      path,
      body: '{"method":"GET","path":"auth"}',
    });
    expect(response.statusCode, response.body).toBe(400);
  });

  it('refuses a request marked as an inner call, however it got there', async () => {
    const response = await t.request({
      method: 'POST',
      url: URL,
      token: staff.token,
      payload: { method: 'GET', path: 'auth' },
      headers: { 'x-latchkey-developer-call': '1' },
    });
    expect(response.statusCode).toBe(400);
  });

  it('refuses a body that is not JSON, a GET with a body, and a body past the cap', async () => {
    const broken = await call(staff.token, { method: 'POST', path: 'portal/group', body: '{"name": ' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.details[0].message).toMatch(/must be JSON/);
    const getWithBody = await call(staff.token, { method: 'GET', path: 'auth', body: '{}' });
    expect(getWithBody.statusCode).toBe(400);
    const long = JSON.stringify({ name: 'x'.repeat(DEVELOPER_CALL_MAX_BODY_CHARS) });
    expect((await call(staff.token, { method: 'POST', path: 'portal/group', body: long })).statusCode).toBe(
      400,
    );
    const huge = await t.request({
      method: 'POST',
      url: URL,
      token: staff.token,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ method: 'POST', path: 'portal/group', body: 'x'.repeat(600 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
  });
});

describe('POST system/developerCall: the audit', () => {
  it("writes each call to the acting portal's change log, without the body or the query's values", async () => {
    await call(staff.token, {
      method: 'POST',
      path: 'portal/group?note=secret-query-value',
      body: JSON.stringify({ name: 'secret-body-value' }),
      portalOverride: owner.portalId,
    });
    const entries = await t.app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('portal_id', '=', owner.portalId)
      .where('action', '=', 'developer_call.run')
      .execute();
    const last = entries.find((entry) => entry.after_json?.includes('"queryNames":["note"]'));
    expect(last).toBeDefined();
    expect(last?.actor_user_id).toBe(staff.userId);
    const after = JSON.parse(last?.after_json ?? '{}');
    expect(after).toMatchObject({
      method: 'POST',
      path: '/api3/portal/group',
      queryNames: ['note'],
      staff: staff.email,
    });
    expect(typeof after.status).toBe('number');
    expect(last?.after_json).not.toContain('secret-body-value');
    expect(last?.after_json).not.toContain('secret-query-value');
    // Another portal's change log holds none of it.
    const elsewhere = await t.app.db
      .selectFrom('audit_log')
      .select('id')
      .where('portal_id', '=', other.portalId)
      .where('action', '=', 'developer_call.run')
      .execute();
    expect(elsewhere).toEqual([]);
  });

  it("writes every call to the platform's change log, also those of staff with no portal", async () => {
    await call(staff.token, { method: 'GET', path: 'portal/devices?limit=1' });
    const entries = await t.app.db
      .selectFrom('platform_audit')
      .selectAll()
      .where('action', '=', 'developer_call.run')
      .where('actor_user_id', '=', staff.userId)
      .execute();
    const noPortal = entries.find((entry) => entry.after_json?.includes('"queryNames":["limit"]'));
    expect(noPortal?.portal_id).toBeNull();
    expect(JSON.parse(noPortal?.after_json ?? '{}')).toMatchObject({
      name: 'GET portal/devices',
      status: 403,
    });
    const inPortal = entries.find((entry) => entry.portal_id === owner.portalId);
    expect(inPortal).toBeDefined();
    expect(entries.every((entry) => !entry.after_json?.includes('secret-body-value'))).toBe(true);
  });

  it("the portal's admins read it in their change log", async () => {
    const log = await t.request({
      method: 'GET',
      url: '/api3/portal/audit',
      token: owner.token,
      query: { limit: '100' },
    });
    expect(log.statusCode, log.body).toBe(200);
    expect(log.body).toContain('developer_call.run');
  });
});

describe('the console’s helpers', () => {
  it('resolves paths under /api3 and keeps the query names apart', () => {
    expect(innerTargetOf('portal/users?limit=5&search=ada')).toEqual({
      url: '/api3/portal/users?limit=5&search=ada',
      pathname: '/api3/portal/users',
      queryNames: ['limit', 'search'],
    });
    expect(innerTargetOf('/api3/auth').url).toBe('/api3/auth');
  });

  it('shows JSON parsed, text as text (cut when long), binary as a note', () => {
    expect(decodeAnswer(Buffer.from('{"a":1}'), 'application/json; charset=utf-8')).toMatchObject({
      body: { a: 1 },
      bodyKind: 'json',
    });
    expect(decodeAnswer(Buffer.from('a,b\n1,2'), 'text/csv')).toMatchObject({ bodyKind: 'text' });
    expect(decodeAnswer(Buffer.from([0x25, 0x50, 0x44, 0x46]), 'application/pdf')).toMatchObject({
      body: null,
      bodyKind: 'binary',
      size: 4,
    });
    expect(decodeAnswer(Buffer.alloc(0), null)).toMatchObject({ bodyKind: 'empty' });
    const long = decodeAnswer(Buffer.from(`"${'x'.repeat(300_000)}"`), 'application/json');
    expect(long).toMatchObject({ bodyKind: 'text', truncated: true });
  });
});

describe('GET about/client and POST about/sealCheck (the /test/api page)', () => {
  it('echoes what the server saw: the version header, the address, its clock', async () => {
    const before = Date.now();
    const response = await t.request({
      method: 'GET',
      url: '/api3/about/client',
      headers: { version: 'web' },
      remoteAddress: '10.1.2.3',
    });
    expect(response.statusCode).toBe(200);
    const echo = response.json();
    expect(echo).toMatchObject({ versionHeader: 'web', clientAddress: '10.1.2.3' });
    expect(Date.parse(echo.serverTime)).toBeGreaterThanOrEqual(before - 1000);
    const bare = (await t.request({ method: 'GET', url: '/api3/about/client' })).json();
    expect(bare.versionHeader).toBeNull();
    const long = (
      await t.request({ method: 'GET', url: '/api3/about/client', headers: { version: 'v'.repeat(500) } })
    ).json();
    expect(long.versionHeader).toHaveLength(40);
  });

  it('opens a sealed probe and answers its digest; a replayed or plain body is refused', async () => {
    const envelope = t.seal({ probe: 'probe 1234' });
    const first = await t.request({
      method: 'POST',
      url: '/api3/about/sealCheck',
      payload: envelope,
      remoteAddress: '10.4.4.4',
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().digest).toBe(sealProbeDigest('probe 1234'));
    expect(first.json().digest).toMatch(/^[0-9a-f]{128}$/);
    const replay = await t.request({
      method: 'POST',
      url: '/api3/about/sealCheck',
      payload: envelope,
      remoteAddress: '10.4.4.4',
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.message).toMatch(/already used/);
    const plain = await t.request({
      method: 'POST',
      url: '/api3/about/sealCheck',
      payload: { probe: 'x' },
      remoteAddress: '10.4.4.4',
    });
    expect(plain.statusCode).toBe(400);
    const stale = await t.request({
      method: 'POST',
      url: '/api3/about/sealCheck',
      payload: t.seal({ probe: 'x' }, Date.now() - 6 * 60_000),
      remoteAddress: '10.4.4.4',
    });
    expect(stale.statusCode).toBe(400);
  });

  it('limits seal checks per address (each stores a nonce): 429 after 30 a minute', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 31; index++) {
      const response = await t.request({
        method: 'POST',
        url: '/api3/about/sealCheck',
        payload: t.seal({ probe: `probe ${index}` }),
        remoteAddress: '10.5.5.5',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    // Another address is not held back.
    const elsewhere = await t.request({
      method: 'POST',
      url: '/api3/about/sealCheck',
      payload: t.seal({ probe: 'probe' }),
      remoteAddress: '10.6.6.6',
    });
    expect(elsewhere.statusCode).toBe(200);
  });
});

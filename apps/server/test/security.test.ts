import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp } from './test-app';

// Security headers, the cross-origin policy and support sessions of platform staff.

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({ CORS_ORIGINS: 'https://partner.example.com' });
});
afterAll(() => t.close());

describe('security headers and CORS', () => {
  it('sends a strict content security policy and the usual hardening headers', async () => {
    for (const url of ['/api3/auth/sealKey', '/api3/nowhere']) {
      const response = await t.request({ method: 'GET', url });
      expect(response.headers['content-security-policy'], url).toContain("default-src 'self'");
      expect(response.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['referrer-policy'], url).toBe('no-referrer');
      expect(response.headers['strict-transport-security'], url).toContain('max-age=31536000');
    }
  });

  it('grants cross-origin calls only to the configured origins', async () => {
    const from = (origin: string) =>
      t.request({ method: 'GET', url: '/api3/auth/sealKey', headers: { origin } });
    expect((await from('https://evil.example.com')).headers['access-control-allow-origin']).toBeUndefined();
    expect((await from('https://partner.example.com')).headers['access-control-allow-origin']).toBe(
      'https://partner.example.com',
    );
    const preflight = await t.request({
      method: 'OPTIONS',
      url: '/api3/auth',
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'GET' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a malformed CORS_ORIGINS at start-up', async () => {
    await expect(TestApp.start({ CORS_ORIGINS: 'not a url' })).rejects.toThrow(/CORS_ORIGINS/);
  });
});

describe('support sessions', () => {
  it('lets platform staff act as a person for a while, visibly and audited, without ending their sessions', async () => {
    const staff = await t.createSuperAdmin();
    const person = await t.signUp({ email: 'helpme@example.com' });
    const start = (payload: object, token = staff.token, id = person.userId) =>
      t.request({ method: 'POST', url: `/api3/user/${id}/session`, token, payload });

    expect((await start({ originUrl: '/admin/users' }, person.token)).statusCode).toBe(403);
    expect((await start({ originUrl: 'https://evil.example.com/' })).statusCode).toBe(400);
    expect((await start({ originUrl: '//evil.example.com' })).statusCode).toBe(400);
    expect((await start({ originUrl: '/x' }, staff.token, 'nobody')).statusCode).toBe(404);

    const opened = await start({ originUrl: '/admin/users' });
    expect(opened.statusCode).toBe(200);
    const support = opened.json();
    expect(support.originUrl).toBe('/admin/users');
    const minutes = (Date.parse(support.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(25);
    expect(minutes).toBeLessThanOrEqual(30);

    const session = (await t.request({ method: 'GET', url: '/api3/auth', token: support.token })).json();
    expect(session.user.email).toBe('helpme@example.com');
    expect(session.impersonatedBy).toEqual({ _id: expect.any(String), email: staff.email });
    expect(session.roles).not.toContain('superAdmin');
    const log = (await t.request({ method: 'GET', url: '/api3/portal/audit', token: person.token })).json();
    expect(log.items[0]).toMatchObject({ action: 'support_session.start', after: { staff: staff.email } });

    // Signing out of the support session leaves the person signed in.
    expect(
      (await t.request({ method: 'POST', url: '/api3/auth/logout', token: support.token })).statusCode,
    ).toBe(204);
    expect((await t.request({ method: 'GET', url: '/api3/auth', token: person.token })).statusCode).toBe(200);

    // When the staff member stops being staff, their support sessions end.
    const again = (await start({ originUrl: '/admin' })).json();
    await t.app.db
      .updateTable('users')
      .set({ platform_role: null })
      .where('email', '=', staff.email)
      .execute();
    expect((await t.request({ method: 'GET', url: '/api3/auth', token: again.token })).statusCode).toBe(401);
  });

  it('does not let staff act as other staff', async () => {
    const staff = await t.createSuperAdmin();
    const colleague = await t.createSuperAdmin();
    const colleagueId = (await t.request({ method: 'GET', url: '/api3/auth', token: colleague.token })).json()
      .user._id;
    const response = await t.request({
      method: 'POST',
      url: `/api3/user/${colleagueId}/session`,
      token: staff.token,
      payload: { originUrl: '/admin' },
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('smaller HTTP defects (issue 10 defect 9)', () => {
  it('answers every API call with Cache-Control: no-store, errors included', async () => {
    const admin = await t.signUp();
    const calls = [
      { url: '/api3/auth/sealKey' },
      { url: '/api3/auth', token: admin.token },
      { url: '/api3/portal/devices', token: admin.token },
      { url: '/api3/auth' }, // 401
      { url: '/api3/nowhere' }, // 404
      { url: '/api3/portal/devices?limit=0x10', token: admin.token }, // 400
      { url: '/api3/openapi.json' },
    ];
    for (const { url, token } of calls) {
      const response = await t.request({ method: 'GET', url, token });
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('stores a time zone by its canonical name, however it was typed; an unknown one stays a 400', async () => {
    const admin = await t.signUp();
    const post = (url: string, payload: object) =>
      t.request({ method: 'POST', url, token: admin.token, payload });
    expect((await post('/api3/portal/data', { timeZone: 'utc' })).json().timeZone).toBe('UTC');
    const created = await post('/api3/portal/device/new', {
      name: 'Door',
      model: 'latchkey-sim',
      timeZone: 'Europe/berlin',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().device.timeZone).toBe('Europe/Berlin');
    const renamed = await post(`/api3/portal/device/${created.json().device._id}`, {
      timeZone: 'america/new_york',
    });
    expect(renamed.json().timeZone).toBe('America/New_York');
    expect((await post('/api3/portal/data', { timeZone: 'Europe/Atlantis' })).statusCode).toBe(400);
  });

  it('takes only plain decimal numbers in query strings (limit=0x10 was 16)', async () => {
    const admin = await t.signUp();
    const list = (query: string) =>
      t.request({ method: 'GET', url: `/api3/portal/devices?${query}`, token: admin.token });
    expect((await list('limit=16')).statusCode).toBe(200);
    for (const query of [
      'limit=0x10',
      'limit=1e1',
      'limit=%2016',
      'limit=',
      'skip=1e3',
      'skip=-1',
      'limit=1.5',
    ]) {
      const response = await list(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.code, query).toBe('bad_request');
    }
    const activity = await t.request({
      method: 'GET',
      url: '/api3/portal/activity?limit=0x10',
      token: admin.token,
    });
    expect(activity.statusCode).toBe(400);
  });

  it('answers an overlong or malformed path parameter in the one error shape', async () => {
    const admin = await t.signUp();
    const get = (url: string) => t.request({ method: 'GET', url, token: admin.token });
    // Over Fastify's default of 100: the route's own id check answers.
    const long = await get(`/api3/portal/device/${'a'.repeat(101)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toMatchObject({ code: 'bad_request', details: [{ path: 'params.id' }] });
    // Over the router's limit: no route is found, and the answer still has our shape.
    for (const url of [`/api3/portal/device/${'a'.repeat(2000)}`, '/api3/portal/device/%E0%A4%A']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    // A long but valid email address in a path (up to 254 characters) is taken.
    const email = `${'a'.repeat(60)}.${'b'.repeat(60)}@${'c'.repeat(60)}.example.com`;
    const activation = await t.request({
      method: 'POST',
      url: `/api3/auth/activation/${encodeURIComponent(email)}`,
    });
    expect(activation.statusCode).toBe(202);
  });
});

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

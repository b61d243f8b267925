import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMailTo } from '../src/base/mail/mail.repository';
import { TestApp } from './test-app';

// Inviting people by email, answering by link or in the app, re-inviting, expiry.

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signUp']>>;
beforeAll(async () => {
  t = await TestApp.start({ PUBLIC_URL: 'https://portal.example.com', LOGIN_LIMIT_PER_IP: '1000' });
  admin = await t.signUp({ email: 'ines@example.com', firstName: 'Ines', portalName: 'Sunny Flats' });
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = admin.token) =>
  t.request({ method, url: `/api3/${url}`, token, ...(payload && { payload }) });

/** The token of the newest mail to `email` with a link to `path`. */
async function linkToken(email: string, path: string): Promise<string> {
  const pattern = new RegExp(`https://portal\\.example\\.com${path}\\?token=([\\w-]+)`);
  for (const mail of await listMailTo(t.app.db, email)) {
    const match = mail.text_body.match(pattern);
    if (match) return match[1]!;
  }
  throw new Error(`no mail to ${email} links to ${path}`);
}

describe('inviting a person without an account', () => {
  it('mails a link; they choose a password and land in the portal with the role, groups and locks given', async () => {
    const lock = (
      await api('POST', 'portal/device/new', { name: 'Roof', model: 'latchkey-sim', timeZone: 'UTC' })
    ).json().device._id;
    const group = (await api('POST', 'portal/group', { name: 'Tenants' })).json()._id;
    const invited = await api('POST', 'user/invite', {
      email: 'Nora@Example.com',
      firstName: 'Nora',
      role: 'user',
      groupIds: [group],
      deviceIds: [lock],
    });
    expect(invited.statusCode).toBe(201);
    expect(invited.json()).toEqual({
      member: expect.objectContaining({ email: 'nora@example.com', status: 'invited' }),
    });
    const userId = invited.json().member._id;
    // Invited, not yet in: no entry on the lock, no sign-in.
    expect((await api('GET', `portal/device/${lock}/access`)).json().people).toEqual([]);
    expect((await t.login('nora@example.com', 'anything at all')).statusCode).toBe(401);

    const [mail] = await listMailTo(t.app.db, 'nora@example.com');
    expect(mail!.subject).toBe('You are invited to Sunny Flats on Latchkey');
    const token = await linkToken('nora@example.com', '/invite');
    const fetched = await t.request({
      method: 'POST',
      url: '/api3/user/inviteFetchUser',
      payload: { token },
    });
    expect(fetched.json()).toMatchObject({
      email: 'nora@example.com',
      firstName: 'Nora',
      portal: { name: 'Sunny Flats' },
      role: 'user',
      invitedBy: expect.stringContaining('Ines'),
      needsPassword: true,
      status: 'invited',
    });

    const respond = (payload: object) =>
      t.request({ method: 'POST', url: '/api3/user/inviteResponse', payload: t.seal(payload) });
    const noPassword = await respond({ token, accept: true });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().error.details[0].path).toBe('body.password');
    const accepted = await respond({ token, accept: true, password: 'nora passphrase 1', lastName: 'North' });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ status: 'accepted', session: { token: expect.any(String) } });
    const session = (await api('GET', 'auth', undefined, accepted.json().session.token)).json();
    expect(session.user).toMatchObject({ email: 'nora@example.com', lastName: 'North', emailVerified: true });
    expect(session.memberships).toEqual([expect.objectContaining({ role: 'user', status: 'active' })]);
    expect((await api('GET', `portal/device/${lock}/access`)).json().people).toEqual([
      expect.objectContaining({ _id: userId, canOpen: true }),
    ]);
    expect((await api('GET', `group/${group}/users`)).json().map((u: { _id: string }) => u._id)).toContain(
      userId,
    );

    // Accepting twice is harmless.
    const again = await respond({ token, accept: true });
    expect(again.json()).toMatchObject({ status: 'accepted', session: null });
    expect((await t.login('nora@example.com', 'nora passphrase 1')).statusCode).toBe(200);
  });

  it('lets a declined address sign up later, and refuses bad or replaced links', async () => {
    await api('POST', 'user/invite', { email: 'otto@example.com' });
    const first = await linkToken('otto@example.com', '/invite');
    const member = (await api('GET', 'portal/users?search=otto')).json().items[0];
    expect((await api('POST', `user/re-invite/${member._id}`)).statusCode).toBe(200);
    const second = await linkToken('otto@example.com', '/invite');
    const fetch = (token: string) =>
      t.request({ method: 'POST', url: '/api3/user/inviteFetchUser', payload: { token } });
    expect((await fetch(first)).statusCode).toBe(400);
    expect((await fetch('x'.repeat(43))).statusCode).toBe(400);
    const declined = await t.request({
      method: 'POST',
      url: '/api3/user/inviteResponse',
      payload: t.seal({ token: second, accept: false }),
    });
    expect(declined.json()).toMatchObject({ status: 'declined', session: null });
    expect((await api('GET', 'portal/users?search=otto')).json().total).toBe(0);
    expect((await t.signUp({ email: 'otto@example.com' })).userId).toBeTruthy();
  });

  it('refuses duplicates, foreign groups and re-inviting someone who accepted', async () => {
    expect((await api('POST', 'user/invite', { email: 'ines@example.com' })).statusCode).toBe(409);
    expect(
      (await api('POST', 'user/invite', { email: 'pia@example.com', groupIds: ['nope'] })).statusCode,
    ).toBe(404);
    expect((await api('POST', 'user/invite', { email: 'not an email' })).statusCode).toBe(400);
    expect((await api('POST', `user/re-invite/${admin.userId}`)).statusCode).toBe(409);
    expect((await api('GET', 'portal/users?search=pia')).json().total).toBe(0);
  });
});

describe('inviting a person who has an account', () => {
  it('needs a confirmed address to accept in the app; accepting twice is harmless; declining leaves', async () => {
    const quinn = await t.signUp({ email: 'quinn@example.com', verified: false });
    const invited = await api('POST', 'user/invite', { email: 'quinn@example.com', role: 'admin' });
    expect(invited.json()).toEqual({
      member: expect.objectContaining({ role: 'admin', status: 'invited' }),
    });
    const accept = () => api('POST', `portal/user/portal/${admin.portalId}/accept`, undefined, quinn.token);

    expect(
      (await api('GET', `portal/user/portal/${admin.portalId}`, undefined, quinn.token)).json(),
    ).toMatchObject({
      status: 'invited',
    });
    expect((await accept()).statusCode).toBe(403);
    const verifyToken = await linkToken('quinn@example.com', '/verify');
    expect(
      (await t.request({ method: 'POST', url: `/api3/auth/verify?token=${verifyToken}` })).statusCode,
    ).toBe(200);
    expect((await accept()).json()).toEqual({ status: 'accepted', portalId: admin.portalId });
    expect((await accept()).json()).toEqual({ status: 'accepted', portalId: admin.portalId });
    const decline = await api('POST', `portal/user/portal/${admin.portalId}/decline`, undefined, quinn.token);
    expect(decline.statusCode).toBe(409);
    // Acting there as admin now works.
    expect(
      (
        await t.request({
          method: 'GET',
          url: '/api3/portal/devices',
          token: quinn.token,
          portal: admin.portalId,
        })
      ).statusCode,
    ).toBe(200);

    const rae = await t.signUp({ email: 'rae@example.com' });
    await api('POST', 'user/invite', { email: 'rae@example.com' });
    expect(
      (await api('POST', `portal/user/portal/${admin.portalId}/decline`, undefined, rae.token)).json().status,
    ).toBe('declined');
    expect((await api('GET', `portal/user/portal/${admin.portalId}`, undefined, rae.token)).statusCode).toBe(
      404,
    );
    expect(
      (await api('POST', `portal/user/portal/${admin.portalId}/accept`, undefined, rae.token)).statusCode,
    ).toBe(404);
  });

  it('lets an invitation expire after its period', async () => {
    const sol = await t.signUp({ email: 'sol@example.com' });
    await t.app.db
      .updateTable('users')
      .set({ email_verified_at: new Date().toISOString() })
      .where('id', '=', sol.userId)
      .execute();
    await api('POST', 'user/invite', { email: 'sol@example.com' });
    await t.app.db
      .updateTable('memberships')
      .set({ updated_at: '2020-01-01T00:00:00.000Z' })
      .where('user_id', '=', sol.userId)
      .where('portal_id', '=', admin.portalId)
      .execute();
    const accept = await api('POST', `portal/user/portal/${admin.portalId}/accept`, undefined, sol.token);
    expect(accept.statusCode).toBe(400);
    expect(accept.json().error.message).toMatch(/expired/);
  });
});

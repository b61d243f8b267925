import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMailTo } from '../src/base/mail/mail.repository';
import { TestApp } from './test-app';

// Email verification, activation mails, password reset (new and legacy links) and passwordVerify.

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({ PUBLIC_URL: 'https://portal.example.com', LOGIN_LIMIT_PER_IP: '1000' });
});
afterAll(() => t.close());

/** The token of the newest mail to `email` whose link starts with `path`. */
async function tokenFromMail(email: string, path: string): Promise<string> {
  const [mail] = await listMailTo(t.app.db, email);
  expect(mail, `a mail to ${email}`).toBeDefined();
  const match = mail!.text_body.match(new RegExp(`https://portal\\.example\\.com${path}\\?token=([\\w-]+)`));
  expect(match, mail!.text_body).not.toBeNull();
  return match![1]!;
}

const post = (url: string, payload?: object, token?: string) =>
  t.request({ method: 'POST', url: `/api3/${url}`, token, ...(payload && { payload }) });

describe('email verification', () => {
  it('mails a link at sign-up that confirms the address once', async () => {
    const person = await t.signUp({ email: 'vera@example.com', verified: false });
    const before = (await t.request({ method: 'GET', url: '/api3/auth', token: person.token })).json();
    expect(before.user.emailVerified).toBe(false);
    const token = await tokenFromMail('vera@example.com', '/verify');
    const [mail] = await listMailTo(t.app.db, 'vera@example.com');
    expect(mail!.subject).toBe('Confirm your email address for Latchkey');
    expect(mail!.html_body).toContain(`https://portal.example.com/verify?token=${token}`);

    const verified = await post(`auth/verify?token=${token}`);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ email: 'vera@example.com', emailVerified: true });
    expect((await post(`auth/verify?token=${token}`)).statusCode).toBe(400);
    expect((await post('auth/verify?token=short')).statusCode).toBe(400);

    // A verified account gets no more verification mail.
    const resend = await post('auth/activation/vera@example.com');
    expect(resend.statusCode).toBe(202);
    expect(await listMailTo(t.app.db, 'vera@example.com')).toHaveLength(1);
  });

  it('answers the same for unknown addresses, and a new link replaces the old one', async () => {
    const unknown = await post('auth/activation/nobody@example.com');
    const person = await t.signUp({ email: 'walt@example.com', verified: false });
    const first = await tokenFromMail('walt@example.com', '/verify');
    const known = await post('auth/activation/WALT@example.com');
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.json()).toEqual(unknown.json());
    expect(await listMailTo(t.app.db, 'nobody@example.com')).toEqual([]);
    const second = await tokenFromMail('walt@example.com', '/verify');
    expect(second).not.toBe(first);
    expect((await post(`auth/verify?token=${first}`)).statusCode).toBe(400);
    expect((await post(`auth/verify?token=${second}`)).statusCode).toBe(200);
    expect(person.userId).toBeTruthy();
  });

  it('limits activation mails per address', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await post('auth/activation/busy@example.com')).statusCode);
    expect(statuses).toEqual([202, 202, 202, 429]);
    expect((await post('auth/activation/not-an-email')).statusCode).toBe(400);
  });
});

describe('password reset', () => {
  it('mails a one-time link that sets a new password and ends every session', async () => {
    const person = await t.signUp({ email: 'rita@example.com', password: 'old passphrase 1' });
    const unknown = await post('auth/resetPassword/ghost@example.com');
    const known = await post('auth/resetPassword/rita@example.com');
    expect(known.statusCode).toBe(202);
    expect(known.json()).toEqual(unknown.json());
    expect(await listMailTo(t.app.db, 'ghost@example.com')).toEqual([]);
    const token = await tokenFromMail('rita@example.com', '/auth/reset');

    const weak = await post('auth/reset', t.seal({ token, password: 'password' }));
    expect(weak.statusCode).toBe(400);
    const reset = await post('auth/reset', t.seal({ token, password: 'new passphrase 2' }));
    expect(reset.statusCode).toBe(200);
    expect(reset.json().token).toBeTruthy();
    expect((await t.request({ method: 'GET', url: '/api3/auth', token: person.token })).statusCode).toBe(401);
    expect((await t.login('rita@example.com', 'old passphrase 1')).statusCode).toBe(401);
    expect((await t.login('rita@example.com', 'new passphrase 2')).statusCode).toBe(200);
    expect((await post('auth/reset', t.seal({ token, password: 'third passphrase 3' }))).statusCode).toBe(
      400,
    );
    // The link proved the address.
    const session = (await t.request({ method: 'GET', url: '/api3/auth', token: reset.json().token })).json();
    expect(session.user.emailVerified).toBe(true);
  });

  it('refuses an expired link, and takes legacy /reset/{resetToken} links', async () => {
    await t.signUp({ email: 'lou@example.com' });
    await post('auth/resetPassword/lou@example.com');
    const expired = await tokenFromMail('lou@example.com', '/auth/reset');
    await t.app.db.updateTable('account_tokens').set({ expires_at: '2020-01-01T00:00:00.000Z' }).execute();
    expect(
      (await post('auth/reset', t.seal({ token: expired, password: 'fresh passphrase 9' }))).statusCode,
    ).toBe(400);
    await post('auth/resetPassword/lou@example.com');
    const resetToken = await tokenFromMail('lou@example.com', '/auth/reset');
    const legacy = await post('auth/legacyReset', t.seal({ resetToken, password: 'fresh passphrase 9' }));
    expect(legacy.statusCode).toBe(200);
    expect((await post('auth/reset', { token: resetToken, password: 'not sealed 123' })).statusCode).toBe(
      400,
    );
  });
});

describe('password check', () => {
  it('confirms the current password of the signed-in person', async () => {
    const person = await t.signUp({ email: 'pat@example.com', password: 'pat passphrase 1' });
    expect(
      (await post('auth/passwordVerify', t.seal({ password: 'pat passphrase 1' }), person.token)).statusCode,
    ).toBe(204);
    const wrong = await post('auth/passwordVerify', t.seal({ password: 'nope' }), person.token);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details[0].path).toBe('body.password');
    expect((await post('auth/passwordVerify', t.seal({ password: 'x' }))).statusCode).toBe(401);
  });
});

describe('email change', () => {
  it('moves the account to a new address once the link sent there is followed', async () => {
    const person = await t.signUp({ email: 'old.address@example.com', password: 'move passphrase 1' });
    const change = (payload: object) => post('auth/email', t.seal(payload), person.token);
    expect((await change({ newEmail: 'new.address@example.com', password: 'wrong' })).statusCode).toBe(400);
    expect(
      (await change({ newEmail: 'old.address@example.com', password: 'move passphrase 1' })).statusCode,
    ).toBe(400);
    await t.signUp({ email: 'taken.address@example.com' });
    expect(
      (await change({ newEmail: 'taken.address@example.com', password: 'move passphrase 1' })).statusCode,
    ).toBe(409);
    const asked = await change({ newEmail: 'New.Address@example.com', password: 'move passphrase 1' });
    expect(asked.statusCode).toBe(202);
    // Until confirmed, the old address stays.
    expect((await t.login('old.address@example.com', 'move passphrase 1')).statusCode).toBe(200);
    const token = await tokenFromMail('new.address@example.com', '/verify');
    const verified = await post(`auth/verify?token=${token}`);
    expect(verified.json()).toMatchObject({ email: 'new.address@example.com', emailVerified: true });
    expect((await t.login('new.address@example.com', 'move passphrase 1')).statusCode).toBe(200);
    expect((await t.login('old.address@example.com', 'move passphrase 1')).statusCode).toBe(401);
  });
});

describe('dev mailbox', () => {
  it('lists every message for platform staff only, newest first, searchable', async () => {
    const staff = await t.createSuperAdmin();
    const person = await t.signUp({ email: 'mailbox.owner@example.com' });
    const page = await t.request({
      method: 'GET',
      url: '/api3/admin/mail?search=mailbox.owner',
      token: staff.token,
    });
    expect(page.statusCode).toBe(200);
    expect(page.json().total).toBe(1);
    expect(page.json().items[0]).toMatchObject({
      to: 'mailbox.owner@example.com',
      template: 'verify_email',
      subject: 'Confirm your email address for Latchkey',
      sentAt: null,
    });
    expect((await t.app.mail.sendDue()) > 0).toBe(true);
    const sent = (
      await t.request({ method: 'GET', url: '/api3/admin/mail?search=mailbox.owner', token: staff.token })
    ).json();
    expect(sent.items[0].sentAt).not.toBeNull();
    expect(
      (await t.request({ method: 'GET', url: '/api3/admin/mail', token: person.token })).statusCode,
    ).toBe(403);
  });
});

import { addDaysToDate, localWallTime } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMailTo } from '../src/base/mail/mail.repository';
import { alertMail, deviceInvitationMail, invitationMail } from '../src/base/mail/mail.templates';
import { TestApp } from './test-app';

// Mail people make the portal send to others (issue 10, defect 7): only from confirmed addresses,
// within per-recipient, per-sender and per-portal limits, with typed names kept to one short line.
// Also: a guest invite that has already ended is refused (defect 9).

const limits = { MAIL_LIMIT_PER_RECIPIENT: '3', MAIL_LIMIT_PER_SENDER: '5', MAIL_LIMIT_PER_PORTAL: '8' };

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start(limits);
});
afterAll(() => t.close());

type Person = Awaited<ReturnType<TestApp['signUp']>>;

/** Sets whether the person's address counts as confirmed (the verification flow has its own tests). */
async function setConfirmed(app: TestApp, person: Person, confirmed: boolean) {
  await app.app.db
    .updateTable('users')
    .set({ email_verified_at: confirmed ? new Date().toISOString() : null })
    .where('id', '=', person.userId)
    .execute();
}

async function confirmedAdmin(app = t): Promise<Person> {
  const person = await app.signUp();
  await setConfirmed(app, person, true);
  return person;
}

async function addLock(app: TestApp, admin: Person, name = 'Front door'): Promise<string> {
  const response = await app.request({
    method: 'POST',
    url: '/api3/portal/device/new',
    token: admin.token,
    payload: { name, model: 'latchkey-sim', timeZone: 'Europe/Berlin' },
  });
  expect(response.statusCode).toBe(201);
  return response.json().device._id as string;
}

const window = {
  name: 'Gail Guest',
  days: [1, 2, 3, 4, 5],
  start: '09:00',
  end: '17:00',
  startDate: '2030-03-01',
  endDate: '2030-03-31',
};

function invite(app: TestApp, admin: Person, lock: string, body: object, portal?: string) {
  return app.request({
    method: 'POST',
    url: `/api3/device/${lock}/invite`,
    token: admin.token,
    portal,
    payload: { ...window, ...body },
  });
}

function resend(app: TestApp, admin: Person, lock: string, inviteId: string) {
  return app.request({
    method: 'GET',
    url: `/api3/device/${lock}/invite/${inviteId}/resend`,
    token: admin.token,
  });
}

async function invitesOf(admin: Person, lock: string) {
  return (
    await t.request({ method: 'GET', url: `/api3/device/${lock}/invite`, token: admin.token })
  ).json() as Array<{ _id: string; email: string | null; sentCount: number }>;
}

const invitationMailsTo = async (app: TestApp, to: string) =>
  (await listMailTo(app.app.db, to)).filter((mail) => mail.template === 'device_invitation');

describe('mail people send to others', () => {
  it('sends 25 resends of a guest invite as 3 mails; the rest answer 429 with Retry-After and change nothing', async () => {
    const admin = await confirmedAdmin();
    const lock = await addLock(t, admin);
    const created = await invite(t, admin, lock, { email: 'gail@example.com', send: true });
    expect(created.statusCode).toBe(201);
    const statuses = [];
    for (let i = 0; i < 25; i++) statuses.push((await resend(t, admin, lock, created.json()._id)).statusCode);
    expect(statuses).toEqual([200, 200, ...Array(23).fill(429)]);

    const refused = await resend(t, admin, lock, created.json()._id);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    expect(await invitationMailsTo(t, 'gail@example.com')).toHaveLength(3);
    expect((await invitesOf(admin, lock))[0]!.sentCount).toBe(3);
    const log = (
      await t.request({ method: 'GET', url: '/api3/portal/audit', token: admin.token })
    ).json() as { items: Array<{ action: string }> };
    expect(log.items.filter((entry) => entry.action === 'invite.resend')).toHaveLength(2);
  });

  it("stops one person's invitations to many addresses, and a refused invite is not created", async () => {
    const admin = await confirmedAdmin();
    const lock = await addLock(t, admin);
    const statuses = [];
    for (let i = 0; i < 8; i++) {
      statuses.push(
        (await invite(t, admin, lock, { email: `outside-${i}@example.net`, send: true })).statusCode,
      );
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
    expect(await invitesOf(admin, lock)).toHaveLength(5);
    expect(await invitationMailsTo(t, 'outside-5@example.net')).toEqual([]);
    // Without mail, an invite is only a code: still possible.
    expect((await invite(t, admin, lock, { email: 'outside-5@example.net' })).statusCode).toBe(201);
  });

  it("stops a portal's mail at its daily limit, whichever admin sends it", async () => {
    const owner = await confirmedAdmin();
    const lock = await addLock(t, owner);
    const colleague = await confirmedAdmin();
    await t.addMember(owner.portalId, colleague.userId, 'admin');
    for (let i = 0; i < 5; i++) {
      expect((await invite(t, owner, lock, { email: `a-${i}@example.org`, send: true })).statusCode).toBe(
        201,
      );
    }
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const response = await invite(
        t,
        colleague,
        lock,
        { email: `b-${i}@example.org`, send: true },
        owner.portalId,
      );
      statuses.push(response.statusCode);
    }
    // The colleague has sent 3 of their own 5, but the portal's 8 are used up.
    expect(statuses).toEqual([201, 201, 201, 429]);
  });

  it('lets an account whose address is not confirmed send no invitation', async () => {
    const admin = await t.signUp();
    await setConfirmed(t, admin, false);
    const lock = await addLock(t, admin);
    const refused = await invite(t, admin, lock, { email: 'victim@example.com', send: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(/Confirm your email address/);
    expect(await invitesOf(admin, lock)).toEqual([]);

    const quiet = await invite(t, admin, lock, { email: 'victim@example.com' });
    expect(quiet.statusCode).toBe(201);
    expect((await resend(t, admin, lock, quiet.json()._id)).statusCode).toBe(403);
    const saved = await t.request({
      method: 'POST',
      url: `/api3/device/${lock}/invite/${quiet.json()._id}`,
      token: admin.token,
      payload: { ...window, email: 'victim@example.com', send: true },
    });
    expect(saved.statusCode).toBe(403);
    expect(await invitationMailsTo(t, 'victim@example.com')).toEqual([]);

    await setConfirmed(t, admin, true);
    expect((await resend(t, admin, lock, quiet.json()._id)).statusCode).toBe(200);
  });

  it("does not let invitations hold back a person's own reset mail", async () => {
    const person = await t.signUp();
    const admin = await confirmedAdmin();
    const lock = await addLock(t, admin);
    for (let i = 0; i < 3; i++) {
      expect((await invite(t, admin, lock, { email: person.email, send: true })).statusCode).toBe(201);
    }
    expect((await invite(t, admin, lock, { email: person.email, send: true })).statusCode).toBe(429);
    const reset = await t.request({ method: 'POST', url: `/api3/auth/resetPassword/${person.email}` });
    expect(reset.statusCode).toBe(202);
    const mails = await listMailTo(t.app.db, person.email);
    expect(mails.filter((mail) => mail.template === 'reset_password')).toHaveLength(1);
  });
});

describe('typed names in mail', () => {
  const hostile = `Evil\r\nBcc: all@example.com\u202e\u0007 ${'x'.repeat(500)}`;

  it('keeps every typed fact in a subject to one short line, and bodies to short escaped lines', () => {
    const mails = [
      deviceInvitationMail({
        guestName: hostile,
        portalName: hostile,
        lockName: hostile,
        code: '123456',
        when: 'Mon 09:00–17:00',
        startDate: '2030-03-01',
        endDate: '2030-03-31',
        timeZone: 'Europe/Berlin',
      }),
      invitationMail({
        portalName: hostile,
        invitedBy: `<script>${hostile}`,
        role: 'admin',
        link: 'https://latchkey.example/invite?token=t',
        newAccount: true,
        days: 14,
      }),
      alertMail({ title: hostile, message: hostile, link: 'https://latchkey.example/app' }),
    ];
    for (const mail of mails) {
      expect(mail.subject).not.toMatch(/[\p{Cc}\u202e]/u);
      expect(mail.subject.length).toBeLessThanOrEqual(100);
      expect(mail.subject).toContain('Evil Bcc: all@example.com');
      expect(mail.subject).toContain('…');
      // No typed text starts a line of its own in the body.
      expect(mail.text).not.toMatch(/^Bcc:/m);
      expect(mail.text).not.toMatch(/x{480}/); // cut short (alert messages at 500 characters)
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).not.toMatch(/[\p{Cc}\u202e]/u);
    }
  });
});

describe('guest invites that have already ended', () => {
  it('refuses an end date in the past of the lock, naming the field, and takes today', async () => {
    const admin = await confirmedAdmin();
    const lock = await addLock(t, admin);
    const today = localWallTime(new Date(), 'Europe/Berlin').date;
    const ended = await invite(t, admin, lock, {
      startDate: addDaysToDate(today, -10),
      endDate: addDaysToDate(today, -1),
      days: [0, 1, 2, 3, 4, 5, 6],
    });
    expect(ended.statusCode).toBe(400);
    expect(ended.json().error.details).toEqual([
      { path: 'body.endDate', message: expect.stringMatching(/past/) },
    ]);
    expect(await invitesOf(admin, lock)).toEqual([]);
    const lastDay = await invite(t, admin, lock, {
      startDate: addDaysToDate(today, -10),
      endDate: today,
      days: [0, 1, 2, 3, 4, 5, 6],
    });
    expect(lastDay.statusCode).toBe(201);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('mail limits across servers (Redis)', () => {
  it('counts a recipient once for every server', async () => {
    const first = await TestApp.start({ ...limits, REDIS_URL: redisUrl! });
    const second = await TestApp.start({
      ...limits,
      REDIS_URL: redisUrl!,
      DATA_DIR: first.app.config.DATA_DIR,
      ...(first.app.config.DATABASE_URL && { DATABASE_URL: first.app.config.DATABASE_URL }),
    });
    try {
      const admin = await confirmedAdmin(first);
      const lock = await addLock(first, admin);
      const created = await invite(first, admin, lock, { email: 'shared@example.com', send: true });
      expect(created.statusCode).toBe(201);
      expect((await resend(first, admin, lock, created.json()._id)).statusCode).toBe(200);
      expect((await resend(second, admin, lock, created.json()._id)).statusCode).toBe(200);
      expect((await resend(second, admin, lock, created.json()._id)).statusCode).toBe(429);
      expect((await resend(first, admin, lock, created.json()._id)).statusCode).toBe(429);
      expect(await invitationMailsTo(first, 'shared@example.com')).toHaveLength(3);
    } finally {
      await second.close();
      await first.close();
    }
  });
});

import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvitedAccount, offerAccount } from '../src/features/auth/accounts';
import {
  addListing,
  addLock,
  dayIn,
  mailTo,
  requestStay,
  stayAccountLinkToken,
  type RentalPortal,
} from './rental-helpers';
import { TestApp } from './test-app';

// Issue 16, defect 1 (account takeover through a guest link) and defect 8 (empty-address accounts
// from imported stays). On main before the fix, POST device/{guest link}/sharelock/add made the
// stay's address a CONFIRMED account with whatever password the caller sent, and a host sees every
// guest link: the attacker's activation answered 200 with a session, the attacker then signed in as
// the victim and accepted the victim's later portal invitation. An imported stay (no guest address)
// made an account with the email "" the same way, after which every other imported guest was
// refused. Each step below fails on that code.

const LISBON = 'Europe/Lisbon';
const ATTACKER_PASSWORD = 'attacker chose this one';
const VICTIM_PASSWORD = 'the victim chose this';

let t: TestApp;
let attacker: RentalPortal & { email: string };
let listingId: string;
let night = 10;

beforeAll(async () => {
  t = await TestApp.start({ STAY_ACCESS_CHECK_MS: '0' });
  // A free self-signup host who never confirmed their own address.
  const signedUp = await t.signUp({ verified: false });
  attacker = { ...signedUp };
  const lock = await addLock(t, attacker);
  listingId = await addListing(t, attacker, [lock.id], { title: 'Bait flat' });
  const settings = await t.request({
    method: 'POST',
    url: `/api3/device/${listingId}/sharelock`,
    token: attacker.token,
    payload: { enabled: true, autoAccept: true },
  });
  expect(settings.statusCode, settings.body).toBe(200);
});
afterAll(() => t.close());

const victimAddress = () => `victim-${crypto.randomUUID().slice(0, 8)}@example.org`;

/** The attacker requests a stay in `email`'s name on their auto-accept listing; answers its guest link. */
async function stayInNameOf(email: string): Promise<{ stayId: string; landingToken: string }> {
  night += 3;
  const requested = await requestStay(t, listingId, {
    name: 'Victor Victim',
    email,
    startDate: dayIn(LISBON, night),
    endDate: dayIn(LISBON, night + 2),
  });
  expect(requested.statusCode, requested.body).toBe(201);
  expect(requested.json().state).toBe('approved');
  const stayId = requested.json()._id as string;
  // The host's own stay view shows the guest link (so does the rental center).
  const view = await t.request({
    method: 'GET',
    url: `/api3/device/${listingId}/request/${stayId}`,
    token: attacker.token,
  });
  expect(view.statusCode, view.body).toBe(200);
  const landingPath = view.json().landingPath as string;
  expect(landingPath).toMatch(/^\/s\?t=S1\./);
  return { stayId, landingToken: decodeURIComponent(landingPath.slice('/s?t='.length)) };
}

const activate = (landingToken: string, body: object, remoteAddress = '10.66.6.6') =>
  t.request({
    method: 'POST',
    url: `/api3/device/${landingToken}/sharelock/add`,
    payload: t.seal(body),
    remoteAddress,
  });

const claim = (body: object, remoteAddress = '10.77.7.7') =>
  t.request({ method: 'POST', url: '/api3/sharelock/account', payload: t.seal(body), remoteAddress });

const accountOf = (email: string) =>
  t.app.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();

const stayRow = (stayId: string) =>
  t.app.db.selectFrom('stays').selectAll().where('id', '=', stayId).executeTakeFirstOrThrow();

describe('a host activating a guest link in a stranger’s name (issue 16 defect 1)', () => {
  it('gets no session, no account, no password of theirs, and cannot sign in or accept invitations as the victim', async () => {
    const victim = victimAddress();
    const { stayId, landingToken } = await stayInNameOf(victim);

    // Activation with a password of the attacker's choosing: no session, nothing made.
    const activated = await activate(landingToken, { name: 'Victor', password: ATTACKER_PASSWORD });
    expect(activated.statusCode, activated.body).toBe(202);
    expect(activated.json()).not.toHaveProperty('token');
    expect(activated.json().sentTo).toBe('v•••@example.org');
    expect(activated.body).not.toContain(victim);
    expect(await accountOf(victim)).toBeUndefined();
    expect((await stayRow(stayId)).guest_user_id).toBeNull();

    // The link went to the victim's mailbox only, and nothing the attacker can read carries it.
    const mailed = await mailTo(t, victim);
    expect(mailed.map((m) => m.template)).toContain('account_offer_stay');
    const linkToken = await stayAccountLinkToken(t, victim);
    expect(activated.body).not.toContain(linkToken);
    expect(JSON.stringify(await mailTo(t, attacker.email))).not.toContain(linkToken);
    const hostView = await t.request({
      method: 'GET',
      url: `/api3/device/${listingId}/request/${stayId}`,
      token: attacker.token,
    });
    expect(hostView.body).not.toContain(linkToken);
    expect(
      (await t.request({ method: 'GET', url: '/api3/rentalcenter', token: attacker.token })).body,
    ).not.toContain(linkToken);

    // A guessed link token makes nothing either.
    const guessed = await claim({
      token: crypto.randomBytes(32).toString('base64url'),
      password: ATTACKER_PASSWORD,
    });
    expect(guessed.statusCode).toBe(400);
    expect(await accountOf(victim)).toBeUndefined();

    // The attacker's password does not sign in as the victim.
    expect((await t.login(victim, ATTACKER_PASSWORD)).statusCode).toBe(401);

    // Later a portal (its admin confirmed) adds the victim as an admin: an account without a password.
    const portal = await t.signUp();
    const invited = await t.request({
      method: 'POST',
      url: '/api3/portal/user',
      token: portal.token,
      payload: { email: victim, role: 'admin' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const account = (await accountOf(victim))!;
    expect(account.email_verified_at).toBeNull();

    // Activating the guest link again gives the attacker nothing: no session, no password set.
    const again = await activate(landingToken, { password: ATTACKER_PASSWORD });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json()).not.toHaveProperty('token');
    expect((await accountOf(victim))!.password_hash).toBe(account.password_hash);
    expect((await t.login(victim, ATTACKER_PASSWORD)).statusCode).toBe(401);
    // The offer mailed before cannot set a password on the account that exists now.
    expect((await claim({ token: linkToken, password: ATTACKER_PASSWORD })).statusCode).toBe(409);
    expect((await t.login(victim, ATTACKER_PASSWORD)).statusCode).toBe(401);

    // The attacker's own session cannot accept the victim's invitation.
    const accept = await t.request({
      method: 'POST',
      url: `/api3/portal/user/portal/${portal.portalId}/accept`,
      token: attacker.token,
    });
    expect(accept.statusCode).toBe(404);
    const membership = await t.app.db
      .selectFrom('memberships')
      .select('status')
      .where('portal_id', '=', portal.portalId)
      .where('user_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(membership.status).toBe('invited');
    expect(
      await t.app.db
        .selectFrom('memberships')
        .select('user_id')
        .where('portal_id', '=', portal.portalId)
        .where('user_id', '=', attacker.userId)
        .executeTakeFirst(),
    ).toBeUndefined();
  });

  it('lets the victim, from the link in their own mailbox, choose their password, sign in and keep the stay', async () => {
    const victim = victimAddress();
    const { stayId, landingToken } = await stayInNameOf(victim);
    expect((await activate(landingToken, { password: ATTACKER_PASSWORD })).statusCode).toBe(202);
    const first = await stayAccountLinkToken(t, victim);
    // Asking again sends a new link and the first stops working (only the newest counts).
    expect((await activate(landingToken, {}, '10.8.8.8')).statusCode).toBe(202);
    const linkToken = await stayAccountLinkToken(t, victim);
    expect(linkToken).not.toBe(first);

    // The staff's dev mailbox shows the same mail with the link.
    const staff = await t.createSuperAdmin();
    const box = await t.request({
      method: 'GET',
      url: `/api3/admin/mail?search=${encodeURIComponent(victim)}`,
      token: staff.token,
    });
    expect(box.statusCode, box.body).toBe(200);
    expect(box.body).toContain(`/s/account?token=${linkToken}`);

    expect((await claim({ token: first, password: VICTIM_PASSWORD })).statusCode).toBe(400);
    expect((await claim({ token: linkToken, password: 'password' })).statusCode).toBe(400); // too common
    const claimed = await claim({ token: linkToken, name: 'Vera', password: VICTIM_PASSWORD });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const me = (await t.request({ method: 'GET', url: '/api3/auth', token: claimed.json().token })).json();
    expect(me.user).toMatchObject({ email: victim, firstName: 'Vera', emailVerified: true });
    expect((await stayRow(stayId)).guest_user_id).toBe(me.user._id);
    const landing = (await t.request({ method: 'GET', url: `/api3/device/token/${landingToken}` })).json();
    expect(landing.stay.accountLinked).toBe(true);

    // Single use: the link makes nothing a second time.
    expect((await claim({ token: linkToken, password: ATTACKER_PASSWORD })).statusCode).toBe(400);
    expect((await t.login(victim, VICTIM_PASSWORD)).statusCode).toBe(200);
    expect((await t.login(victim, ATTACKER_PASSWORD)).statusCode).toBe(401);
    // Now that the account exists, the guest link needs its password, as before.
    expect((await activate(landingToken, { password: ATTACKER_PASSWORD }, '10.9.1.1')).statusCode).toBe(401);
    expect((await activate(landingToken, { password: VICTIM_PASSWORD }, '10.9.1.2')).statusCode).toBe(200);
  });

  it('names the account after the stay’s guest when the person leaves their name empty', async () => {
    const victim = victimAddress();
    const { landingToken } = await stayInNameOf(victim);
    expect((await activate(landingToken, {})).statusCode).toBe(202);
    const claimed = await claim({ token: await stayAccountLinkToken(t, victim), password: VICTIM_PASSWORD });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const me = (await t.request({ method: 'GET', url: '/api3/auth', token: claimed.json().token })).json();
    expect(me.user).toMatchObject({ email: victim, firstName: 'Victor Victim' });
  });

  it('limits how often the link can be mailed to one address', async () => {
    const victim = victimAddress();
    const { landingToken } = await stayInNameOf(victim);
    for (let i = 0; i < 3; i += 1) {
      expect((await activate(landingToken, {}, `10.5.5.${i + 1}`)).statusCode).toBe(202);
    }
    const refused = await activate(landingToken, {}, '10.5.5.9');
    expect(refused.statusCode).toBe(429);
    expect((await mailTo(t, victim)).filter((m) => m.template === 'account_offer_stay')).toHaveLength(3);
  });

  it('refuses bad input with a 4xx and makes nothing', async () => {
    const victim = victimAddress();
    const { landingToken } = await stayInNameOf(victim);
    // Unsealed, or a damaged guest link.
    const unsealed = await t.request({
      method: 'POST',
      url: `/api3/device/${landingToken}/sharelock/add`,
      payload: { password: ATTACKER_PASSWORD },
    });
    expect(unsealed.statusCode).toBe(400);
    expect((await activate(`${landingToken}x`, {})).statusCode).toBe(404);
    expect((await claim({ token: 'not a token!', password: VICTIM_PASSWORD })).statusCode).toBe(400);
    expect((await claim({ token: 'abc', password: '' })).statusCode).toBe(400);
    expect(await accountOf(victim)).toBeUndefined();
  });
});

describe('a stay without a guest address (issue 16 defect 8)', () => {
  it('answers a clear 400 on activation and never makes an account without an address', async () => {
    // An imported reservation's stay has no guest address (calendars/ical-import.ts writes '').
    const { stayId, landingToken } = await stayInNameOf(victimAddress());
    await t.app.db
      .updateTable('stays')
      .set({ guest_email: '', source: 'ical' })
      .where('id', '=', stayId)
      .execute();
    const second = await stayInNameOf(victimAddress());
    await t.app.db
      .updateTable('stays')
      .set({ guest_email: '', source: 'ical' })
      .where('id', '=', second.stayId)
      .execute();

    for (const token of [landingToken, second.landingToken]) {
      const answer = await activate(token, { name: 'Imported', password: ATTACKER_PASSWORD });
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().error.message).toBe('This stay has no guest address; ask your host to add it');
    }
    expect(await accountOf('')).toBeUndefined();
    const outbox = await t.app.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('to_address', '=', '')
      .execute();
    expect(outbox).toEqual([]);

    // The accounts module itself refuses an empty or malformed address, whoever calls it.
    await expect(createInvitedAccount(t.app.db, '')).rejects.toMatchObject({ status: 400 });
    await expect(createInvitedAccount(t.app.db, 'not an address')).rejects.toMatchObject({ status: 400 });
    await expect(
      offerAccount(t.app.db, {
        email: '',
        purpose: 'stay',
        portalId: null,
        subjectId: null,
        link: (token) => token,
        render: () => ({ subject: 's', text: 't', html: 'h' }),
      }),
    ).rejects.toMatchObject({ status: 400 });
    expect(await accountOf('')).toBeUndefined();
  });
});

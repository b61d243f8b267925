import type { Stay } from '@latchkey/shared';
import { SimulatedLock } from '@latchkey/locksim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addListing, addLock, dayIn, mailTo, requestStay, type RentalPortal } from './rental-helpers';
import { TestApp } from './test-app';

/**
 * Issue 16, defect 3: stay mail went around the mail throttle and the confirmed-sender rule. On
 * main before the fix an unconfirmed host made the portal mail an outside address 9 times in a
 * minute (the listing's title in the subject) by approving and changing a stay: the access monitor
 * and the decline and cancel mails queued mail directly (enqueueMail). Now a stay's mails to its
 * guest are mail to others (sendMail 'to-others'): the person they are sent for must have confirmed
 * their own address, and they count per recipient, sender and portal like invitations. Each check
 * below fails on that main: there the unconfirmed host's approve, change and resend succeed and
 * every decline, cancel and access mail reaches the guest, and the confirmed host's seven changes
 * mail the guest seven times.
 */

const LISBON = 'Europe/Lisbon';
/** MAIL_LIMIT_PER_RECIPIENT here: mails to one address per hour. */
const PER_RECIPIENT = 3;
/** What a host makes the portal send a guest (the request's own receipt goes to the requester). */
const GUEST_MAIL = ['stay_access', 'stay_declined', 'stay_cancelled', 'stay_review'];

let t: TestApp;

beforeAll(async () => {
  t = await TestApp.start({
    STAY_ACCESS_CHECK_MS: '0',
    STAY_ACCESS_ALERT_MINUTES: '10',
    REVIEW_MAIL_CHECK_MS: '0',
    ICAL_SYNC_MINUTES: '0',
    MAIL_LIMIT_PER_RECIPIENT: String(PER_RECIPIENT),
  });
});
afterAll(() => t.close());

async function host(verified: boolean): Promise<RentalPortal & { email: string }> {
  const person = await t.signUp({ verified });
  return { token: person.token, portalId: person.portalId, userId: person.userId, email: person.email };
}

const guestMail = async (email: string) =>
  (await mailTo(t, email)).filter((m) => GUEST_MAIL.includes(m.template));

function act(portal: RentalPortal, listingId: string, stayId: string, payload: object) {
  return t.request({
    method: 'POST',
    url: `/api3/device/${listingId}/request/${stayId}`,
    token: portal.token,
    payload,
  });
}

async function stayOf(portal: RentalPortal, listingId: string, stayId: string): Promise<Stay> {
  const response = await t.request({
    method: 'GET',
    url: `/api3/device/${listingId}/request/${stayId}`,
    token: portal.token,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function notifications(portal: RentalPortal): Promise<{ kind: string; title: string }[]> {
  const response = await t.request({ method: 'GET', url: '/api3/portal/notifications', token: portal.token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items;
}

async function requested(listingId: string, email: string, fromDay: number): Promise<string> {
  const response = await requestStay(t, listingId, {
    name: 'Vic Outside',
    email,
    startDate: dayIn(LISBON, fromDay),
    endDate: dayIn(LISBON, fromDay + 2),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json()._id;
}

/** A lock that takes every set the server sends it (a simulated lock over MQTT). */
async function liveLock(portal: RentalPortal, name: string) {
  const lock = await addLock(t, portal, { name });
  const simulated = new SimulatedLock({
    url: t.app.deviceLink.transport.url,
    deviceId: lock.id,
    secret: lock.secret,
    heartbeatSeconds: 0,
  });
  await simulated.start();
  return { id: lock.id, stop: () => simulated.stop() };
}

/** Waits until every lock has confirmed the stay's access as it is now, then runs the monitor once. */
async function locksConfirm(portal: RentalPortal, listingId: string, stayId: string): Promise<void> {
  await t.app.deviceLink.flushScheduledSyncs();
  await expect
    .poll(async () =>
      (await stayOf(portal, listingId, stayId)).access
        .flatMap((a) => a.locks)
        .every((l) => l.state === 'confirmed' || l.state === 'removed'),
    )
    .toBe(true);
  await t.app.rental.monitor.sweep();
}

describe('an unconfirmed host makes the portal mail no guest', () => {
  it('refuses approve, change and resend with 403; decline, cancel and the ready access go unmailed and are recorded', async () => {
    const unconfirmed = await host(false);
    const victim = 'victim@outside.example';
    const lock = await liveLock(unconfirmed, 'Unconfirmed door');
    try {
      // A request the host answers: approving it would mail the guest their code.
      const listingId = await addListing(t, unconfirmed, [lock.id], { title: 'CHEAP PILLS click here' });
      const stayId = await requested(listingId, victim, 20);
      const approve = await act(unconfirmed, listingId, stayId, { action: 'approve' });
      expect(approve.statusCode, approve.body).toBe(403);
      expect(approve.json().error.message).toMatch(/Confirm your email address/);
      expect((await stayOf(unconfirmed, listingId, stayId)).state).toBe('requested');
      // Declining still declines (nothing waits on mail), but the guest is not mailed.
      const decline = await act(unconfirmed, listingId, stayId, { action: 'decline', reason: 'Full' });
      expect(decline.statusCode, decline.body).toBe(200);
      expect(decline.json().state).toBe('declined');
      expect(await guestMail(victim)).toEqual([]);

      // An automatically accepted stay: its access mail is sent for the owner, who is not confirmed.
      const autoListing = await addListing(t, unconfirmed, [lock.id], {
        title: 'Auto flat',
        autoAccept: true,
      });
      const autoStay = await requested(autoListing, victim, 30);
      expect((await stayOf(unconfirmed, autoListing, autoStay)).state).toBe('approved');
      await locksConfirm(unconfirmed, autoListing, autoStay);
      const ready = await stayOf(unconfirmed, autoListing, autoStay);
      expect(ready.accessState).toBe('ready');
      expect(ready.guestMailedAt).toBeNull();
      await t.app.rental.monitor.sweep(); // a second run neither mails nor records it again
      expect(await guestMail(victim)).toEqual([]);

      // Each change would mail the guest again: refused, and the stay is as it was.
      const change = await act(unconfirmed, autoListing, autoStay, {
        action: 'change',
        startDate: ready.startDate,
        endDate: dayIn(LISBON, 33),
      });
      expect(change.statusCode, change.body).toBe(403);
      expect((await stayOf(unconfirmed, autoListing, autoStay)).endDate).toBe(ready.endDate);
      const resend = await act(unconfirmed, autoListing, autoStay, { action: 'resend' });
      expect(resend.statusCode, resend.body).toBe(403);

      // Cancelling takes the access away at once; the guest is not mailed.
      const cancel = await act(unconfirmed, autoListing, autoStay, { action: 'cancel' });
      expect(cancel.statusCode, cancel.body).toBe(200);
      expect(cancel.json().state).toBe('cancelled');
      expect(await guestMail(victim)).toEqual([]);

      // What was not sent is recorded where the host sees it, once each.
      const told = (await notifications(unconfirmed)).map((n) => n.title);
      expect(told.filter((title) => /was not mailed/.test(title)).sort()).toEqual([
        'Vic Outside was not mailed the cancellation',
        'Vic Outside was not mailed the decline',
        'Vic Outside was not mailed their access',
      ]);
    } finally {
      await lock.stop();
    }
  });
});

describe('a confirmed host changing a stay many times', () => {
  it(`mails the guest at most MAIL_LIMIT_PER_RECIPIENT (${PER_RECIPIENT}) times an hour; the rest are recorded, resend answers 429`, async () => {
    const confirmed = await host(true);
    const guest = 'often.changed@outside.example';
    const lock = await liveLock(confirmed, 'Busy door');
    try {
      const listingId = await addListing(t, confirmed, [lock.id], { title: 'Harbour loft' });
      const stayId = await requested(listingId, guest, 40);
      expect((await act(confirmed, listingId, stayId, { action: 'approve' })).statusCode).toBe(200);
      await locksConfirm(confirmed, listingId, stayId);
      const changes = PER_RECIPIENT + 3;
      for (let i = 1; i <= changes; i++) {
        const change = await act(confirmed, listingId, stayId, {
          action: 'change',
          startDate: dayIn(LISBON, 40),
          endDate: dayIn(LISBON, 42 + i),
        });
        expect(change.statusCode, change.body).toBe(200);
        await locksConfirm(confirmed, listingId, stayId);
      }
      const stay = await stayOf(confirmed, listingId, stayId);
      expect(stay).toMatchObject({ accessState: 'ready', endDate: dayIn(LISBON, 42 + changes) });
      const sent = await guestMail(guest);
      expect(sent.map((m) => m.template)).toEqual(Array(PER_RECIPIENT).fill('stay_access'));
      const unsent = (await notifications(confirmed)).filter((n) => /was not mailed/.test(n.title));
      expect(unsent).toHaveLength(1 + changes - PER_RECIPIENT);
      expect(unsent.every((n) => n.kind === 'stay_access')).toBe(true);
      const resend = await act(confirmed, listingId, stayId, { action: 'resend' });
      expect(resend.statusCode, resend.body).toBe(429);
      expect(resend.headers['retry-after']).toBeTruthy();
      expect(await guestMail(guest)).toHaveLength(PER_RECIPIENT);

      // Mail to a person's own address is not counted against mail others send them.
      await t.signUp({ email: guest, verified: false });
      const reset = await t.request({ method: 'POST', url: `/api3/auth/resetPassword/${guest}` });
      expect(reset.statusCode, reset.body).toBe(202);
      expect((await mailTo(t, guest)).map((m) => m.template)).toContain('reset_password');
    } finally {
      await lock.stop();
    }
  });
});

describe('system mail', () => {
  it("still reaches the portal's own admins, whoever caused it and whatever their address", async () => {
    const unconfirmed = await host(false);
    // A lock that never answers: the owner is alerted (and mailed) after STAY_ACCESS_ALERT_MINUTES.
    const silent = await addLock(t, unconfirmed, { name: 'Silent door' });
    const listingId = await addListing(t, unconfirmed, [silent.id], {
      title: 'Quiet room',
      autoAccept: true,
    });
    const stayId = await requested(listingId, 'quiet.guest@outside.example', 50);
    expect((await stayOf(unconfirmed, listingId, stayId)).state).toBe('approved');
    await t.app.rental.monitor.sweep(new Date(Date.now() + 11 * 60_000));
    const alerts = (await mailTo(t, unconfirmed.email)).filter((m) => m.template === 'alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.subject).toMatch(/not on the locks yet/);
    // A new request is told to the host, who is this portal's admin.
    expect((await mailTo(t, unconfirmed.email)).map((m) => m.template)).toContain('stay_request_host');
    expect(await guestMail('quiet.guest@outside.example')).toEqual([]);
  });
});

import type { LivePortalMessage, NotificationsPage, WaitingRequests } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { storeNotice } from '../src/features/alerts/notices';
import { sweepPayments } from '../src/features/payments/payments.service';
import { makeOwner } from './factories';
import { CARDS, payOnSandbox } from './sandbox-checkout';
import { addListing, addLock, dayIn, rentalPortal, requestStay, type RentalPortal } from './rental-helpers';
import { TestApp } from './test-app';

/**
 * The host's inbox (issue 19, item 3): a guest's request on a public listing page is told to the
 * listing's portal, once, in GET portal/notifications (with what it is about) and on the live
 * channel; the portal's basic users and every other portal see nothing of it; and the requests
 * still waiting for an answer are listed and counted for the dashboard and the Listings badge.
 */

let t: TestApp;
let host: RentalPortal;
let other: RentalPortal;
let basicUser: { token: string; userId: string };
let listingId: string;

const get = (url: string, token: string, portal?: string) =>
  t.request({ method: 'GET', url: `/api3/${url}`, token, ...(portal && { portal }) });

beforeAll(async () => {
  t = await TestApp.start({ STAY_ACCESS_CHECK_MS: '0', LOGIN_LIMIT_PER_IP: '1000' });
  host = await rentalPortal(t);
  other = await rentalPortal(t);
  const person = await t.signUp({ firstName: 'Mia', lastName: 'Stone' });
  await t.addMember(host.portalId, person.userId, 'user');
  basicUser = { token: person.token, userId: person.userId };
  const lock = await addLock(t, host, { name: 'Flat door' });
  listingId = await addListing(t, host, [lock.id], { title: 'Sea view flat' });
});
afterAll(() => t.close());

describe('a stay request in the host inbox', () => {
  let stayId: string;
  const published: LivePortalMessage[] = [];

  it('raises one notification for the host portal, naming the guest and listing, and sends it live', async () => {
    const spy = vi.spyOn(t.app.live, 'publish').mockImplementation(async (portalId, message) => {
      published.push({ ...message, portalId } as LivePortalMessage);
    });
    try {
      const response = await requestStay(t, listingId, {
        name: 'Marco Visitor',
        startDate: dayIn('Europe/Lisbon', 10),
        endDate: dayIn('Europe/Lisbon', 13),
      });
      expect(response.statusCode, response.body).toBe(201);
      stayId = response.json()._id;
    } finally {
      spy.mockRestore();
    }

    const page = (await get('portal/notifications', host.token)).json<NotificationsPage>();
    const told = page.items.filter((n) => n.kind === 'stay_request');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      title: 'Marco Visitor asks to stay at Sea view flat',
      unread: true,
      subject: { type: 'stay', _id: stayId, listingId, name: 'Marco Visitor · Sea view flat' },
    });
    expect(told[0]!.message).toMatch(/^\w{3} \d{1,2}, \d{4} – \w{3} \d{1,2}, \d{4}, 3 nights\.$/);
    expect(page.unread).toBeGreaterThanOrEqual(1);

    const live = published.filter((m) => m.type === 'notification');
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({
      portalId: host.portalId,
      notification: { _id: told[0]!._id, kind: 'notice', title: told[0]!.title },
    });
  });

  it('is told once: the same request stored again (a retry, another server) adds nothing', async () => {
    const again = await storeNotice(t.app.db, host.portalId, {
      kind: 'stay_request',
      title: 'again',
      message: 'again',
      subject: null,
      onceKey: `stay_request:${stayId}`,
    });
    expect(again).toBeNull();
    expect(
      await t.app.alerts.notice(host.portalId, {
        kind: 'stay_request',
        title: 'again',
        message: 'again',
        subject: null,
        onceKey: `stay_request:${stayId}`,
      }),
    ).toBe(false);
    const page = (await get('portal/notifications', host.token)).json<NotificationsPage>();
    expect(page.items.filter((n) => n.kind === 'stay_request')).toHaveLength(1);
  });

  it('is not shown to the portal basic users, nor to another portal', async () => {
    expect((await get('portal/notifications', basicUser.token, host.portalId)).statusCode).toBe(403);
    expect((await get('portal/requests/waiting', basicUser.token, host.portalId)).statusCode).toBe(403);
    const theirs = (await get('portal/notifications', other.token)).json<NotificationsPage>();
    expect(theirs.items.filter((n) => n.kind === 'stay_request')).toEqual([]);
    const theirWaiting = (await get('portal/requests/waiting', other.token)).json<WaitingRequests>();
    expect(theirWaiting).toEqual({ items: [], total: 0 });
    // Naming the host portal does not help another portal's admin.
    expect((await get('portal/notifications', other.token, host.portalId)).statusCode).toBe(403);
  });

  it('lists the request as waiting for an answer until the host answers it', async () => {
    const waiting = (await get('portal/requests/waiting', host.token)).json<WaitingRequests>();
    expect(waiting.total).toBe(1);
    expect(waiting.items).toEqual([
      expect.objectContaining({
        _id: stayId,
        listingId,
        listingTitle: 'Sea view flat',
        guestName: 'Marco Visitor',
        startDate: dayIn('Europe/Lisbon', 10),
        endDate: dayIn('Europe/Lisbon', 13),
      }),
    ]);
    const answered = await t.request({
      method: 'POST',
      url: `/api3/device/${listingId}/request/${stayId}`,
      token: host.token,
      payload: { action: 'decline', reason: 'Closed for works' },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect((await get('portal/requests/waiting', host.token)).json<WaitingRequests>()).toEqual({
      items: [],
      total: 0,
    });
  });
});

describe('a lock refusing what it was sent, in the host inbox', () => {
  let lockId: string;
  const inbox = async (kind: string) =>
    (await get('portal/notifications', host.token))
      .json<NotificationsPage>()
      .items.filter((n) => n.kind === kind);
  const waitForInbox = async (kind: string, count: number) => {
    const deadline = Date.now() + 5000;
    for (;;) {
      const items = await inbox(kind);
      if (items.length >= count || Date.now() > deadline) return items;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  beforeAll(async () => {
    lockId = (await addLock(t, host, { name: 'Side gate' })).id;
    // Online, as its status would say, so the command is sent rather than refused.
    await t.app.db.updateTable('devices').set({ online: 1 }).where('id', '=', lockId).execute();
  });

  it('tells of a remote unlock the lock answered "jammed", once however often the lock repeats it', async () => {
    const sent = await t.request({
      method: 'POST',
      url: `/api3/device/${lockId}/command`,
      token: host.token,
      payload: { action: 'unlock' },
    });
    expect(sent.statusCode, sent.body).toBe(202);
    const ack = Buffer.from(JSON.stringify({ commandId: sent.json().commandId, ok: false, error: 'jammed' }));
    // The lock's answer, as the broker hands it over; a lock that did not see our ack sends it again.
    await t.app.deviceLink.handle({ deviceId: lockId, topic: 'commands/ack', payload: ack });
    await t.app.deviceLink.handle({ deviceId: lockId, topic: 'commands/ack', payload: ack });
    const told = await waitForInbox('sync_failed', 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await inbox('sync_failed')).toHaveLength(1);
    expect(told[0]).toMatchObject({
      title: 'Side gate did not unlock',
      message: 'The remote unlock was not carried out: the lock is jammed.',
      device: { _id: lockId, name: 'Side gate' },
      subject: { type: 'device', _id: lockId, name: 'Side gate', listingId: null },
    });
    const theirs = (await get('portal/notifications', other.token)).json<NotificationsPage>();
    expect(theirs.items.filter((n) => n.kind === 'sync_failed')).toEqual([]);
  });

  it('tells of a remote command that expired with no answer from the lock, once', async () => {
    const sent = await t.request({
      method: 'POST',
      url: `/api3/device/${lockId}/command`,
      token: host.token,
      payload: { action: 'lock' },
    });
    expect(sent.statusCode, sent.body).toBe(202);
    // Its time runs out with the lock silent.
    await t.app.db
      .updateTable('device_commands')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', sent.json().commandId)
      .execute();
    expect(await t.app.alerts.sweepExpiredCommands(new Date())).toBe(1);
    expect(await t.app.alerts.sweepExpiredCommands(new Date())).toBe(0);
    const told = (await inbox('sync_failed')).filter((n) => n.title === 'Side gate did not lock');
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toMatch(/expired before the lock answered/);
  });

  it('tells which credentials a lock refused and why, once per set version', async () => {
    const refusal = {
      kind: 'credentials' as const,
      device: { id: lockId, name: 'Side gate' },
      version: 7,
      rejected: [{ credentialId: 'not-a-credential-here', reason: 'storage_full' as const }],
    };
    expect(await t.app.alerts.lockRefused(host.portalId, refusal)).toBe(true);
    expect(await t.app.alerts.lockRefused(host.portalId, refusal)).toBe(false);
    const told = await inbox('lock_refused');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      title: 'Side gate refused a credential',
      subject: { type: 'device', _id: lockId },
    });
    expect(told[0]!.message).toContain("A credential: the lock's memory is full");
  });
});

describe('a declined renewal in the host inbox', () => {
  it('tells the portal admins once, naming the plan and linking to billing; other portals see nothing', async () => {
    const t2 = await TestApp.start({
      LOGIN_LIMIT_PER_IP: '1000',
      SIGNUP_LIMIT_PER_IP: '1000',
      PAYMENTS_SWEEP_MS: '0',
    });
    try {
      const admin = await makeOwner(t2);
      const bystander = await makeOwner(t2);
      const started = await t2.request({
        method: 'POST',
        url: '/api3/portal/subscription/checkout',
        token: admin.token,
        payload: { plan: 'pro' },
      });
      expect(started.statusCode, started.body).toBe(201);
      await payOnSandbox(t2, started.json<{ url: string }>().url, CARDS.failsLater);
      // The paid period ends: the sandbox tries to renew with a card that now declines.
      const customer = await sandboxCustomerOf(t2, admin.portalId);
      await t2.app.db
        .updateTable('sandbox_subscriptions')
        .set({ current_period_end: new Date(Date.now() - 1000).toISOString() })
        .where('customer_id', '=', customer)
        .execute();
      await sweepPayments(t2.app.db, t2.app.payments);
      await sweepPayments(t2.app.db, t2.app.payments);
      const page = (
        await t2.request({ method: 'GET', url: '/api3/portal/notifications', token: admin.token })
      ).json<NotificationsPage>();
      const told = page.items.filter((n) => n.kind === 'payment_failed');
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({
        title: 'The payment for the Pro plan was declined',
        subject: { type: 'subscription', name: 'Pro plan' },
        unread: true,
      });
      const theirs = (
        await t2.request({ method: 'GET', url: '/api3/portal/notifications', token: bystander.token })
      ).json<NotificationsPage>();
      expect(theirs.items.filter((n) => n.kind === 'payment_failed')).toEqual([]);
    } finally {
      await t2.close();
    }
  });
});

async function sandboxCustomerOf(app: TestApp, portalId: string): Promise<string> {
  const row = await app.app.db
    .selectFrom('subscriptions')
    .select('provider_customer_id')
    .where('portal_id', '=', portalId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return row.provider_customer_id!;
}

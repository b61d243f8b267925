import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_RETRY_SCHEDULE_MS, type LockEvent, type WebhookDelivery } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { nextAttemptDelay } from '../src/features/webhooks/webhook-delivery';
import { postWebhook } from '../src/features/webhooks/webhook-fetch';
import { retryScheduleOf } from '../src/features/webhooks/webhooks.plugin';
import { signWebhook } from '../src/features/webhooks/webhook-signature';
import { makeMember, makeOwner } from './factories';
import { TestApp } from './test-app';
import { PythonReceiver, verifyWithPython } from './webhooks/python-receiver';
import { waitFor } from './net-helpers';
import { CARDS, payOnSandbox } from './sandbox-checkout';
import { closeMonth, issuerOf } from '../src/features/billing/billing.service';

/**
 * Outgoing webhooks (features/webhooks, issue 21 item 2): signed as the Standard Webhooks
 * specification says — checked by an independent receiver in Python —, retried with the same
 * message id, logged per attempt, guarded like the iCal read, delivered once across servers,
 * disabled after persistent failure, and never shown to another portal.
 */

/** A local HTTP server answering as `handler` says; counts requests. */
async function localServer(handler: http.RequestListener) {
  const requests: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      requests.push({ headers: request.headers, body });
      handler(request, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  onTestFinished(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${port}/hook`, port, requests };
}

function lockEvent(overrides: Partial<LockEvent> = {}): LockEvent {
  return {
    eventId: crypto.randomUUID(),
    ts: new Date().toISOString(),
    type: 'unlock',
    method: 'rfid',
    credentialId: null,
    reason: null,
    commandId: null,
    ...overrides,
  };
}

describe('webhook delivery to an independent receiver', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof makeOwner>>;
  const api = (
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    token = owner.token,
  ) => t.request({ method, url: `/api3/${url}`, token, ...(payload && { payload }) });

  beforeAll(async () => {
    t = await TestApp.start({
      WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_RETRY_SCHEDULE_MS: '0,300,300,300',
      WEBHOOK_POLL_MS: '100',
    });
    owner = await makeOwner(t, { firstName: 'Ada' });
  });
  afterAll(() => t.close());

  async function endpointWithReceiver(eventTypes: string[] | null, failFirst: number) {
    const created = await api('POST', 'portal/webhooks', {
      url: 'http://127.0.0.1:9/not-yet',
      description: 'Python receiver',
      eventTypes,
    });
    expect(created.statusCode).toBe(201);
    const endpointId = created.json()._id as string;
    const secret = (await api('GET', `portal/webhooks/${endpointId}/secret`)).json().secret as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const receiver = await PythonReceiver.start(secret, failFirst);
    onTestFinished(() => receiver.stop());
    expect((await api('PATCH', `portal/webhooks/${endpointId}`, { url: receiver.url })).statusCode).toBe(200);
    return { endpointId, secret, receiver };
  }

  const deliveries = async (endpointId: string) => {
    const response = await api('GET', `portal/webhooks/${endpointId}/deliveries`);
    expect(response.statusCode).toBe(200);
    return response.json<{ items: WebhookDelivery[]; total: number }>();
  };

  it('fails twice, is accepted the third time with the same webhook-id, processed once, and the log shows three attempts', async () => {
    const { endpointId, secret, receiver } = await endpointWithReceiver(['lock.event'], 2);
    const lock = (
      await api('POST', 'portal/device/new', { name: 'Front door', model: 'latchkey-sim', timeZone: 'UTC' })
    ).json().device as { _id: string };
    const event = lockEvent({ method: 'manual', type: 'unlock' });
    await t.app.deviceLink.handle({
      deviceId: lock._id,
      topic: 'events',
      payload: Buffer.from(JSON.stringify([event])),
    });

    await waitFor(() => receiver.requests.some((r) => r.processed), 'the accepted attempt');
    const seen = receiver.requests;
    expect(seen).toHaveLength(3);
    expect(seen.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(seen.every((r) => r.verified)).toBe(true);
    expect(new Set(seen.map((r) => r.id)).size).toBe(1);
    expect(seen[0]!.id).toMatch(/^msg_/);
    expect(seen.filter((r) => r.processed)).toHaveLength(1);
    expect(seen[2]!.event).toMatchObject({
      type: 'lock.event',
      data: { eventId: event.eventId, lock: { _id: lock._id, name: 'Front door' }, event: 'unlock' },
    });

    const log = await waitFor(async () => {
      const page = await deliveries(endpointId);
      return page.items[0]?.status === 'succeeded' ? page : undefined;
    }, 'the log');
    expect(log.total).toBe(1);
    expect(log.items[0]!.messageId).toBe(seen[0]!.id);
    expect(log.items[0]!.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
    expect(log.items[0]!.attempts[2]!.response).toContain('"ok": true');

    // The documented verification refuses the same request once its timestamp is over 5 minutes old.
    const accepted = seen[2]!;
    const request = (now: number, body = accepted.body) => ({
      headers: {
        'webhook-id': accepted.id!,
        'webhook-timestamp': accepted.timestamp!,
        'webhook-signature': accepted.signature!,
      },
      body,
      now,
    });
    const sentAt = Number(accepted.timestamp);
    expect(await verifyWithPython(secret, request(sentAt))).toEqual({ ok: true, reason: 'ok' });
    expect(await verifyWithPython(secret, request(sentAt + 6 * 60))).toEqual({
      ok: false,
      reason: 'timestamp too old or too new',
    });
    expect(
      (await verifyWithPython(secret, request(sentAt, accepted.body.replace('unlock', 'lock')))).ok,
    ).toBe(false);

    // A replay by hand: the same message id and body, a fresh timestamp the receiver accepts.
    const replay = await api('POST', `portal/webhooks/${endpointId}/deliveries/${log.items[0]!._id}/replay`);
    expect(replay.statusCode).toBe(200);
    await waitFor(() => receiver.requests.length === 4, 'the replay');
    const again = receiver.requests[3]!;
    expect(again).toMatchObject({
      id: accepted.id,
      verified: true,
      status: 200,
      processed: false,
      body: accepted.body,
    });
    const replayed = await waitFor(async () => {
      const page = await deliveries(endpointId);
      return page.items[0]!.attempts.length === 4 ? page.items[0]! : undefined;
    }, 'the replayed attempt');
    expect(replayed.attempts[3]).toMatchObject({ statusCode: 200, manual: true });

    const audit = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('portal_id', '=', owner.portalId)
      .where('entity_id', '=', endpointId)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining([
        'webhook.endpoint.create',
        'webhook.secret.reveal',
        'webhook.endpoint.update',
        'webhook.delivery.replay',
      ]),
    );
  });

  it('signs with both secrets for a day after a rotation, and sends test events', async () => {
    const { endpointId, secret, receiver } = await endpointWithReceiver(null, 0);
    const rotated = await api('POST', `portal/webhooks/${endpointId}/secret/rotate`);
    expect(rotated.statusCode).toBe(200);
    const { secret: newSecret, previousSecretUntil } = rotated.json() as {
      secret: string;
      previousSecretUntil: string;
    };
    expect(newSecret).not.toBe(secret);
    expect(new Date(previousSecretUntil).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);

    const test = await api('POST', `portal/webhooks/${endpointId}/test`);
    expect(test.statusCode).toBe(201);
    expect(test.json()).toMatchObject({ eventType: 'webhook.test', status: 'pending' });
    // The receiver still knows only the old secret: the second signature is its.
    const got = await waitFor(() => receiver.requests.find((r) => r.processed), 'the test event');
    expect(got).toMatchObject({ verified: true, status: 200, event: { type: 'webhook.test' } });
    expect(got.signature!.split(' ')).toHaveLength(2);
    const request = {
      'webhook-id': got.id!,
      'webhook-timestamp': got.timestamp!,
      'webhook-signature': got.signature!,
    };
    expect(
      (await verifyWithPython(newSecret, { headers: request, body: got.body, now: Number(got.timestamp) }))
        .ok,
    ).toBe(true);
    // The Python and node signatures agree byte for byte.
    expect(got.signature!.split(' ')[0]).toBe(
      signWebhook(newSecret, got.id!, Number(got.timestamp), got.body),
    );
  });

  it('sends credential.confirmed and credential.rejected once per change, with the lock’s reason, and lock status events', async () => {
    const { endpointId, receiver } = await endpointWithReceiver(null, 0);
    const member = await makeMember(t, owner.portalId, { firstName: 'Grace', lastName: 'Hopper' });
    const lock = (
      await api('POST', 'portal/device/new', { name: 'Back door', model: 'latchkey-sim', timeZone: 'UTC' })
    ).json().device as { _id: string };
    expect((await api('PUT', `user/${member.userId}/device/${lock._id}`)).statusCode).toBeLessThan(300);
    const status = (overrides: object) =>
      t.app.deviceLink.handle({
        deviceId: lock._id,
        topic: 'status',
        payload: Buffer.from(
          JSON.stringify({
            online: true,
            battery: 90,
            lockState: 'locked',
            firmware: 't-1',
            credentialsVersion: 0,
            ts: new Date().toISOString(),
            ...overrides,
          }),
        ),
      });
    await status({});
    const desired = await waitFor(
      () =>
        t.app.db
          .selectFrom('device_credential_sync')
          .select('desired_version')
          .where('device_id', '=', lock._id)
          .executeTakeFirst(),
      'a set',
    );
    const ack = (rejected: { credentialId: string; reason: string }[]) =>
      t.app.deviceLink.handle({
        deviceId: lock._id,
        topic: 'credentials/ack',
        payload: Buffer.from(JSON.stringify({ version: desired.desired_version, rejected })),
      });
    const remote = `remote:${member.userId}`;
    await ack([{ credentialId: remote, reason: 'unsupported_kind' }]);
    const received = () => receiver.requests.filter((r) => r.processed).map((r) => r.event!);
    await waitFor(() => received().some((e) => e.type === 'credential.rejected'), 'the rejection');
    expect(received().find((e) => e.type === 'credential.rejected')!.data).toMatchObject({
      lock: { _id: lock._id, name: 'Back door' },
      credential: { _id: remote, kind: 'remote' },
      person: { _id: member.userId },
      reason: 'unsupported_kind',
    });
    // Acked again with the same outcome: nothing new. Then confirmed: credential.confirmed.
    await ack([{ credentialId: remote, reason: 'unsupported_kind' }]);
    await ack([]);
    await waitFor(
      () =>
        received().some(
          (e) => e.type === 'credential.confirmed' && (e.data.credential as { _id: string })._id === remote,
        ),
      'the confirmation',
    );
    expect(received().filter((e) => e.type === 'credential.rejected')).toHaveLength(1);

    // Offline (its last will), online again with a low battery.
    await t.app.deviceLink.handle({
      deviceId: lock._id,
      topic: 'status',
      payload: Buffer.from(JSON.stringify({ online: false, ts: new Date().toISOString() })),
    });
    await status({ battery: 5 });
    await waitFor(() => received().some((e) => e.type === 'lock.battery_low'), 'the battery event');
    const types = received().map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['lock.offline', 'lock.online', 'lock.battery_low']));
    expect((await deliveries(endpointId)).total).toBe(receiver.requests.filter((r) => r.processed).length);
  });

  it('sends stay.requested, stay.approved, stay.access_ready (with the listing’s locks) and stay.cancelled as a stay goes', async () => {
    const { receiver } = await endpointWithReceiver(
      ['stay.requested', 'stay.approved', 'stay.access_ready', 'stay.cancelled'],
      0,
    );
    const lock = (
      await api('POST', 'portal/device/new', { name: 'Garden gate', model: 'latchkey-sim', timeZone: 'UTC' })
    ).json().device as { _id: string };
    const listing = await api('POST', 'listing/new', {
      title: 'Garden flat',
      deviceIds: [lock._id],
      published: true,
    });
    expect(listing.statusCode, listing.body).toBeLessThan(300);
    const listingId = listing.json()._id as string;
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const asked = await t.request({
      method: 'POST',
      url: `/api3/device/${listingId}/request`,
      payload: { name: 'Guest', email: 'webhook-guest@example.com', startDate: day(10), endDate: day(12) },
    });
    expect(asked.statusCode, asked.body).toBeLessThan(300);
    const stayId = asked.json()._id as string;
    const received = () => receiver.requests.filter((r) => r.processed).map((r) => r.event!);
    await waitFor(() => received().some((e) => e.type === 'stay.requested'), 'stay.requested');
    expect(received()[0]!.data).toEqual({
      stay: { _id: stayId, listingId, from: day(10), to: day(12), status: 'requested' },
    });

    const approved = await api('POST', `device/${listingId}/request/${stayId}`, { action: 'approve' });
    expect(approved.statusCode, approved.body).toBe(200);
    await waitFor(() => received().some((e) => e.type === 'stay.approved'), 'stay.approved');

    // The lock confirms the set that carries the guest's code: the stay's access is ready. It
    // confirms the newest set each time round: on a busy machine the set made when the lock was
    // added can arrive after the approval's, and confirming only the first would wait forever.
    await waitFor(async () => {
      const desired = await t.app.db
        .selectFrom('device_credential_sync')
        .select('desired_version')
        .where('device_id', '=', lock._id)
        .executeTakeFirst();
      if (desired) {
        await t.app.deviceLink.handle({
          deviceId: lock._id,
          topic: 'credentials/ack',
          payload: Buffer.from(JSON.stringify({ version: desired.desired_version, rejected: [] })),
        });
      }
      await t.app.rental.monitor.sweep();
      return received().some((e) => e.type === 'stay.access_ready');
    }, 'stay.access_ready');
    expect(received().find((e) => e.type === 'stay.access_ready')!.data).toEqual({
      stay: { _id: stayId, listingId },
      locks: [{ _id: lock._id, name: 'Garden gate' }],
    });
    // Swept again: ready once per access, not once per sweep.
    await t.app.rental.monitor.sweep();

    const cancelled = await api('POST', `device/${listingId}/request/${stayId}`, { action: 'cancel' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await waitFor(() => received().some((e) => e.type === 'stay.cancelled'), 'stay.cancelled');
    expect(received().map((e) => e.type)).toEqual([
      'stay.requested',
      'stay.approved',
      'stay.access_ready',
      'stay.cancelled',
    ]);
  });

  it('keeps another portal out: its admin sees no endpoint, log, secret or replay of this one', async () => {
    const created = await api('POST', 'portal/webhooks', { url: 'https://hooks.example.com/a' });
    const endpointId = created.json()._id as string;
    const delivery = (await api('POST', `portal/webhooks/${endpointId}/test`)).json()._id as string;
    const other = await makeOwner(t, { portalName: 'Other portal' });
    const as = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      api(method, url, payload, other.token);
    expect((await as('GET', 'portal/webhooks')).json().items).toEqual([]);
    for (const [method, url, payload] of [
      ['GET', `portal/webhooks/${endpointId}`],
      ['PATCH', `portal/webhooks/${endpointId}`, { enabled: false }],
      ['GET', `portal/webhooks/${endpointId}/secret`],
      ['POST', `portal/webhooks/${endpointId}/secret/rotate`],
      ['GET', `portal/webhooks/${endpointId}/deliveries`],
      ['POST', `portal/webhooks/${endpointId}/deliveries/${delivery}/replay`],
      ['POST', `portal/webhooks/${endpointId}/test`],
      ['DELETE', `portal/webhooks/${endpointId}`],
    ] as const) {
      expect((await as(method, url, payload)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await api('GET', `portal/webhooks/${endpointId}`)).json().enabled).toBe(true);
  });

  it('sends payment.succeeded for a paid plan, payment.failed for a declined card and bill.closed for a closed month', async () => {
    const { receiver } = await endpointWithReceiver(
      ['payment.succeeded', 'payment.failed', 'bill.closed'],
      0,
    );
    await api('POST', 'portal/device/new', { name: 'Billed door', model: 'latchkey-sim', timeZone: 'UTC' });
    const checkout = async (card: string) => {
      const started = await api('POST', 'portal/subscription/checkout', { plan: 'pro' });
      expect(started.statusCode, started.body).toBe(201);
      const { url, checkoutId } = started.json<{ url: string; checkoutId: string }>();
      await payOnSandbox(t, url, card);
      return checkoutId;
    };
    const declined = await checkout(CARDS.declined);
    const failed = await waitFor(
      () => receiver.requests.find((r) => r.processed && r.event?.type === 'payment.failed'),
      'payment.failed',
    );
    expect(failed.verified).toBe(true);
    expect(failed.event!.data).toEqual({
      payment: {
        kind: 'subscription',
        amountMinor: expect.any(Number),
        currency: 'eur',
        checkoutId: declined,
        invoiceId: null,
      },
    });
    // A plan's first payment is its first invoice: one payment.succeeded, with the invoice's id.
    await checkout(CARDS.success);
    const succeeded = await waitFor(
      () => receiver.requests.find((r) => r.processed && r.event?.type === 'payment.succeeded'),
      'payment.succeeded',
    );
    expect(succeeded.event!.data).toEqual({
      payment: {
        kind: 'subscription',
        amountMinor: expect.any(Number),
        currency: 'eur',
        checkoutId: null,
        invoiceId: expect.stringMatching(/^in_/),
      },
    });
    expect(
      (succeeded.event!.data as { payment: { amountMinor: number } }).payment.amountMinor,
    ).toBeGreaterThan(0);

    const bill = await closeMonth(t.app.db, issuerOf(t.app.config), owner.portalId, 2025, 9, new Date());
    const closed = await waitFor(
      () => receiver.requests.find((r) => r.processed && r.event?.type === 'bill.closed'),
      'bill.closed',
    );
    expect(closed.event!.data).toEqual({
      bill: {
        _id: bill._id,
        year: 2025,
        month: 9,
        number: bill.invoiceNumber,
        totalMinor: bill.totalMinor,
        currency: bill.currency,
      },
    });
    // Closing the month again answers the same bill and announces nothing more.
    await closeMonth(t.app.db, issuerOf(t.app.config), owner.portalId, 2025, 9, new Date());
    await t.app.webhooks.worker.runDue();
    expect(receiver.requests.filter((r) => r.event?.type === 'bill.closed')).toHaveLength(1);
    expect(receiver.requests.filter((r) => r.event?.type === 'payment.succeeded')).toHaveLength(1);
  });
});

describe('webhook guards', () => {
  const options = {
    headers: {},
    body: '{}',
    timeoutMs: 2000,
    maxBytes: 64 * 1024,
    allowPrivateAddresses: true,
  };

  it('refuses private and loopback addresses unless configured, also by name, and plain http', async () => {
    const server = await localServer((_q, r) => r.end('ok'));
    const refused = (url: string) => postWebhook(url, { ...options, allowPrivateAddresses: false });
    await expect(refused(server.url)).rejects.toThrow('must start with https://');
    await expect(refused('https://127.0.0.1/hook')).rejects.toThrow('private network address');
    await expect(refused('https://[::1]/hook')).rejects.toThrow('private network address');
    await expect(refused('https://169.254.169.254/latest')).rejects.toThrow('private network address');
    await expect(refused('https://localhost/hook')).rejects.toThrow('this server');
    // A name that resolves to loopback is refused after resolution (/etc/hosts: vm → 127.0.0.1).
    await expect(refused('https://vm/hook')).rejects.toThrow('points to a private network address');
    expect(server.requests).toHaveLength(0);
    expect(await postWebhook(server.url, options)).toMatchObject({ statusCode: 200, response: 'ok' });

    const t = await TestApp.start();
    onTestFinished(() => t.close());
    const owner = await makeOwner(t);
    for (const url of [server.url, 'https://10.0.0.8/hook', 'https://user:pw@hooks.example.com/']) {
      const response = await t.request({
        method: 'POST',
        url: '/api3/portal/webhooks',
        token: owner.token,
        payload: { url },
      });
      expect(response.statusCode, url).toBe(400);
    }
    expect(await t.app.db.selectFrom('webhook_endpoints').selectAll().execute()).toEqual([]);
  });

  it('does not follow a redirect', async () => {
    const target = await localServer((_q, r) => r.end('moved here'));
    const redirecting = await localServer((_q, r) => {
      r.writeHead(302, { location: target.url });
      r.end();
    });
    expect(await postWebhook(redirecting.url, options)).toMatchObject({ statusCode: 302 });
    expect(target.requests).toHaveLength(0);
  });

  it('reads at most 64 KiB of an answer', async () => {
    const big = await localServer((_q, r) => {
      r.writeHead(200, { 'content-type': 'text/plain' });
      r.end('x'.repeat(2 * 1024 * 1024));
    });
    const answer = await postWebhook(big.url, options);
    expect(answer).toMatchObject({ statusCode: 200, truncated: true });
    expect(answer.response.length).toBe(64 * 1024);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const silent = await localServer(() => {});
    const started = Date.now();
    await expect(postWebhook(silent.url, { ...options, timeoutMs: 300 })).rejects.toThrow('No answer within');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('retries on the Svix schedule by default: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, over a day in all', () => {
    const schedule = retryScheduleOf({ WEBHOOK_RETRY_SCHEDULE_MS: '' });
    expect(schedule).toEqual([...WEBHOOK_RETRY_SCHEDULE_MS]);
    expect(schedule).toEqual([0, 5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6]);
    const waits = [1, 2, 3, 4, 5, 6, 7].map((made) => nextAttemptDelay(schedule, made)!);
    expect(waits.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(nextAttemptDelay(schedule, 8)).toBeNull();
    expect(retryScheduleOf({ WEBHOOK_RETRY_SCHEDULE_MS: '0, 100,200' })).toEqual([0, 100, 200]);
  });
});

describe('webhook workers across servers and over days', () => {
  it('delivers each message once when two servers claim at the same moment', async () => {
    const env = { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOK_POLL_MS: '0' };
    const first = await TestApp.start(env);
    onTestFinished(() => first.close());
    const second = await TestApp.start({
      ...env,
      DATA_DIR: first.app.config.DATA_DIR,
      ...(first.app.config.DATABASE_URL && { DATABASE_URL: first.app.config.DATABASE_URL }),
    });
    onTestFinished(() => second.close());
    const receiver = await localServer((_q, r) => setTimeout(() => r.end('ok'), 5));
    const owner = await makeOwner(first);
    const endpoint = (
      await first.request({
        method: 'POST',
        url: '/api3/portal/webhooks',
        token: owner.token,
        payload: { url: receiver.url },
      })
    ).json();
    for (let i = 0; i < 30; i++) {
      await first.request({
        method: 'POST',
        url: `/api3/portal/webhooks/${endpoint._id}/test`,
        token: owner.token,
      });
    }
    const runs = [first, second].map((t) => t.app.webhooks.worker.runDue());
    await Promise.all(runs);
    const ids = receiver.requests.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    const attempts = await first.app.db.selectFrom('webhook_attempts').select('delivery_id').execute();
    expect(attempts).toHaveLength(30);
  });

  it('disables an endpoint whose every delivery failed for 5 days, and tells the portal’s admins', async () => {
    const t = await TestApp.start({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOK_POLL_MS: '0' });
    onTestFinished(() => t.close());
    const failing = await localServer((_q, r) => {
      r.writeHead(503);
      r.end('down');
    });
    const owner = await makeOwner(t);
    const api = (method: 'GET' | 'POST', url: string) =>
      t.request({ method, url: `/api3/${url}`, token: owner.token });
    const endpoint = (
      await t.request({
        method: 'POST',
        url: '/api3/portal/webhooks',
        token: owner.token,
        payload: { url: failing.url },
      })
    ).json();
    const sixDaysAgo = new Date(Date.now() - 6 * 24 * 3600_000);
    await api('POST', `portal/webhooks/${endpoint._id}/test`);
    await t.app.db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: sixDaysAgo.toISOString() })
      .execute();
    await t.app.webhooks.worker.round(sixDaysAgo);
    expect((await api('GET', `portal/webhooks/${endpoint._id}`)).json()).toMatchObject({
      enabled: true,
      lastAttempt: { ok: false, statusCode: 503 },
    });

    await api('POST', `portal/webhooks/${endpoint._id}/test`);
    await t.app.webhooks.worker.round(new Date());
    expect((await api('GET', `portal/webhooks/${endpoint._id}`)).json()).toMatchObject({
      enabled: false,
      disabledReason: 'failing',
    });
    const notice = await t.app.db
      .selectFrom('notifications')
      .select(['kind', 'message'])
      .where('portal_id', '=', owner.portalId)
      .execute();
    expect(notice).toEqual([expect.objectContaining({ kind: 'webhook_failing' })]);
    expect(notice[0]!.message).toContain(failing.url);
    const mail = await t.app.db.selectFrom('mail_outbox').select(['to_address', 'subject']).execute();
    expect(mail).toContainEqual(
      expect.objectContaining({ to_address: owner.email, subject: 'A webhook endpoint was disabled' }),
    );
    // Disabled: nothing more is sent, a test is refused, and enabling it again clears the mark.
    expect((await api('POST', `portal/webhooks/${endpoint._id}/test`)).statusCode).toBe(409);
    const enabled = await t.request({
      method: 'PATCH',
      url: `/api3/portal/webhooks/${endpoint._id}`,
      token: owner.token,
      payload: { enabled: true },
    });
    expect(enabled.json()).toMatchObject({ enabled: true, disabledReason: null });
  });
});

import { connectAsync } from 'mqtt';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  LIVE_CLOSE_CODES,
  liveServerMessageSchema,
  type Device,
  type DeviceEvent,
  type LiveServerMessage,
} from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { TestApp } from './test-app';

/** A real WebSocket client: every message it receives, and how it was closed. */
class LiveClient {
  readonly messages: LiveServerMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(liveServerMessageSchema.parse(JSON.parse(String(data))));
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static async open(url: string): Promise<LiveClient> {
    const socket = new WebSocket(url);
    const client = new LiveClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return client;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Waits for the first message (from `from` on) that matches; fails after `timeoutMs`. */
  async next<T extends LiveServerMessage['type']>(
    type: T,
    { from = 0, timeoutMs = 3000 } = {},
  ): Promise<Extract<LiveServerMessage, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(from).find((m) => m.type === type);
      if (found) return found as Extract<LiveServerMessage, { type: T }>;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`no ${type} message within ${timeoutMs} ms: ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Authenticates and subscribes, waiting for each answer. */
  async join(token: string, portalId: string): Promise<void> {
    this.send({ type: 'auth', token });
    await this.next('ready');
    await this.subscribe(portalId);
  }

  async subscribe(portalId: string): Promise<void> {
    const from = this.messages.length;
    this.send({ type: 'subscribe', portalId });
    const answer = await Promise.race([this.next('subscribed', { from }), this.next('error', { from })]);
    if (answer.type === 'error') throw new Error(`subscribe refused: ${answer.message}`);
  }

  close(): void {
    this.socket.close();
  }
}

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}/api3/live`;
}

function sampleEvent(deviceId: string, type: DeviceEvent['type'] = 'denied'): DeviceEvent {
  const now = new Date().toISOString();
  return {
    _id: crypto.randomUUID(),
    eventId: crypto.randomUUID(),
    device: { _id: deviceId, name: 'Front door' },
    type,
    method: 'code',
    user: null,
    credentialId: null,
    reason: type === 'denied' ? 'outside_schedule' : null,
    occurredAt: now,
    receivedAt: now,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('live channel', () => {
  let t: TestApp;
  let url: string;
  const clients: LiveClient[] = [];
  const open = async () => {
    const client = await LiveClient.open(url);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    t = await TestApp.start({ LIVE_SESSION_CHECK_S: '0.2', LOGIN_LIMIT_PER_IP: '1000' });
    url = await listen(t);
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await t.close();
  });

  it('closes a socket that never authenticates, after 5 s', async () => {
    const client = await open();
    const started = Date.now();
    const { code } = await client.closed;
    expect(code).toBe(LIVE_CLOSE_CODES.authTimeout);
    expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
  }, 10_000);

  it('closes a socket that subscribes before authenticating', async () => {
    const client = await open();
    client.send({ type: 'subscribe', portalId: 'anything' });
    expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.unauthorized);
  });

  it('closes a socket whose token is not valid, saying why', async () => {
    const { token } = await t.signUp();
    const client = await open();
    client.send({ type: 'auth', token: token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA') });
    expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.unauthorized);
    expect(client.messages).toEqual([
      { type: 'error', code: 'unauthorized', message: expect.stringContaining('not valid') },
    ]);
  });

  it('closes a socket that sends something other than a client message', async () => {
    const client = await open();
    client.send('not json');
    expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.badMessage);
  });

  it("refuses another portal's subscription, and sends none of its messages", async () => {
    const mine = await t.signUp();
    const theirs = await t.signUp();
    const client = await open();
    client.send({ type: 'auth', token: mine.token });
    await client.next('ready');
    await expect(client.subscribe(theirs.portalId)).rejects.toThrow('You may not act in that portal');
    await t.app.live.publishDeviceEvent(theirs.portalId, sampleEvent('d-1'));
    await sleep(200);
    expect(client.messages.map((m) => m.type)).toEqual(['ready', 'error']);
  });

  it("delivers a published message to that portal's subscribers only", async () => {
    const alice = await t.signUp();
    const bob = await t.signUp();
    const aliceSocket = await open();
    const aliceSecondTab = await open();
    const bobSocket = await open();
    await aliceSocket.join(alice.token, alice.portalId);
    await aliceSecondTab.join(alice.token, alice.portalId);
    await bobSocket.join(bob.token, bob.portalId);

    const event = sampleEvent('lock-1', 'tamper');
    await t.app.live.publishDeviceEvent(alice.portalId, event);

    for (const client of [aliceSocket, aliceSecondTab]) {
      expect(await client.next('device.event')).toEqual({
        type: 'device.event',
        portalId: alice.portalId,
        event,
      });
      const { notification } = await client.next('notification');
      expect(notification).toMatchObject({
        kind: 'device_event',
        title: 'Tamper alarm at Front door',
        deviceId: 'lock-1',
      });
    }
    await sleep(200);
    expect(bobSocket.messages.map((m) => m.type)).toEqual(['ready', 'subscribed']);
  });

  it('sends device status, with an alert when a lock goes offline', async () => {
    const admin = await t.signUp();
    const created = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: admin.token,
      payload: { name: 'Back door', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    const device = created.json<{ device: Device }>().device;
    const client = await open();
    await client.join(admin.token, admin.portalId);

    await t.app.live.publishDeviceStatus(
      admin.portalId,
      { ...device, online: false },
      { online: true, battery: 80 },
    );
    expect((await client.next('device.status')).device).toMatchObject({ _id: device._id, online: false });
    expect((await client.next('notification')).notification).toMatchObject({
      kind: 'device_status',
      title: 'Back door is offline',
      deviceId: device._id,
    });
  });

  it("carries a real lock's status and events from the device link to the portal's sockets", async () => {
    const admin = await t.signUp();
    const created = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: admin.token,
      payload: { name: 'Side gate', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    const { device, deviceSecret } = created.json<{ device: Device; deviceSecret: string }>();
    const client = await open();
    await client.join(admin.token, admin.portalId);

    const lock = await connectAsync(t.app.deviceLink.transport.url, {
      clientId: device._id,
      username: device._id,
      password: deviceSecret,
      protocolVersion: 4,
    });
    try {
      const topic = (name: string) => `lk/v1/${device._id}/${name}`;
      const ts = new Date().toISOString();
      await lock.publishAsync(
        topic('status'),
        JSON.stringify({
          online: true,
          battery: 64,
          lockState: 'locked',
          firmware: 'gate-1',
          credentialsVersion: 0,
          ts,
        }),
        { qos: 1, retain: true },
      );
      expect((await client.next('device.status')).device).toMatchObject({
        _id: device._id,
        online: true,
        battery: 64,
      });
      expect((await client.next('notification')).notification).toMatchObject({
        title: 'Side gate is back online',
      });

      const from = client.messages.length;
      await lock.publishAsync(
        topic('events'),
        JSON.stringify({
          eventId: 'gate-evt-1',
          ts,
          type: 'tamper',
          method: null,
          credentialId: null,
          reason: null,
        }),
        { qos: 1 },
      );
      const live = await client.next('device.event', { from });
      expect(live.event).toMatchObject({
        eventId: 'gate-evt-1',
        type: 'tamper',
        device: { name: 'Side gate' },
      });
    } finally {
      await lock.endAsync(true);
    }
  });

  it('switches portals on a new subscribe', async () => {
    const owner = await t.signUp();
    const other = await t.signUp();
    await t.addMember(other.portalId, owner.userId, 'user');
    const client = await open();
    await client.join(owner.token, owner.portalId);
    await client.subscribe(other.portalId);

    await t.app.live.publish(owner.portalId, { type: 'device.event', event: sampleEvent('old') });
    await t.app.live.publish(other.portalId, { type: 'device.event', event: sampleEvent('new') });
    const received = await client.next('device.event');
    expect(received.portalId).toBe(other.portalId);
    expect(received.event.device._id).toBe('new');
    await sleep(200);
    expect(client.messages.filter((m) => m.type === 'device.event')).toHaveLength(1);
    expect(t.app.live.stats().portals[owner.portalId]).toBeUndefined();
  });

  it('lets platform staff subscribe to any portal', async () => {
    const { token } = await t.createSuperAdmin();
    const someone = await t.signUp();
    const client = await open();
    await client.join(token, someone.portalId);
  });

  it('ends the socket when the person signs out', async () => {
    const person = await t.signUp();
    const client = await open();
    await client.join(person.token, person.portalId);
    const logout = await t.request({ method: 'POST', url: '/api3/auth/logout', token: person.token });
    expect(logout.statusCode).toBeLessThan(300);
    expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.unauthorized);
  });

  it('ends the socket when the person is suspended', async () => {
    const admin = await t.signUp();
    const member = await t.signUp();
    await t.addMember(admin.portalId, member.userId, 'user');
    const client = await open();
    await client.join(member.token, admin.portalId);
    await t.app.db
      .updateTable('users')
      .set({ status: 'suspended' })
      .where('id', '=', member.userId)
      .execute();
    expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.unauthorized);
  });

  it('stops sending a portal once the membership there is suspended', async () => {
    const admin = await t.signUp();
    const member = await t.signUp();
    await t.addMember(admin.portalId, member.userId, 'user');
    const client = await open();
    await client.join(member.token, admin.portalId);
    const suspended = await t.request({
      method: 'POST',
      url: `/api3/portal/user/${member.userId}/suspended`,
      token: admin.token,
    });
    expect(suspended.statusCode).toBeLessThan(300);
    const refusal = await client.next('error');
    expect(refusal.code).toBe('portal_override_denied');
    await t.app.live.publish(admin.portalId, { type: 'device.event', event: sampleEvent('after') });
    await sleep(200);
    expect(client.messages.some((m) => m.type === 'device.event')).toBe(false);
  });

  it('cuts off a client that floods it with messages', async () => {
    const person = await t.signUp();
    const client = await open();
    client.send({ type: 'auth', token: person.token });
    for (let i = 0; i < 100; i++) client.send({ type: 'subscribe', portalId: person.portalId });
    expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.badMessage);
  });

  it('publishing never throws, even for a message outside the contract', async () => {
    await expect(
      t.app.live.publish('p', { type: 'device.event', event: { nonsense: true } as unknown as DeviceEvent }),
    ).resolves.toBeUndefined();
  });
});

describe('live channel shutdown', () => {
  it('closes its sockets with "going away" when the app closes', async () => {
    const t = await TestApp.start();
    const url = await listen(t);
    const person = await t.signUp();
    const client = await LiveClient.open(url);
    await client.join(person.token, person.portalId);
    await t.close();
    expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.goingAway);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('live channel across servers (Redis)', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    // Two servers on one database, as behind a load balancer.
    first = await TestApp.start({ REDIS_URL: redisUrl! });
    second = await TestApp.start({
      REDIS_URL: redisUrl!,
      DATA_DIR: first.app.config.DATA_DIR,
      ...(first.app.config.DATABASE_URL && { DATABASE_URL: first.app.config.DATABASE_URL }),
    });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('delivers a message published on one server to a socket on the other', async () => {
    const person = await first.signUp();
    const outsider = await first.signUp();
    const url = await listen(second);
    const client = await LiveClient.open(url);
    const outsiderClient = await LiveClient.open(url);
    try {
      await client.join(person.token, person.portalId);
      await outsiderClient.join(outsider.token, outsider.portalId);
      const event = sampleEvent('lock-9', 'unlock');
      await first.app.live.publishDeviceEvent(person.portalId, event);
      expect(await client.next('device.event')).toEqual({
        type: 'device.event',
        portalId: person.portalId,
        event,
      });
      await sleep(200);
      expect(outsiderClient.messages.map((m) => m.type)).toEqual(['ready', 'subscribed']);
    } finally {
      client.close();
      outsiderClient.close();
    }
  });
});

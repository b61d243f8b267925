import { connectAsync } from 'mqtt';
import crypto from 'node:crypto';
import { LIVE_CLOSE_CODES, type Device, type DeviceEvent } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClient, listen } from './live-client';
import { makeOwner } from './factories';
import { TestApp } from './test-app';

function sampleEvent(
  deviceId: string,
  type: DeviceEvent['type'] = 'denied',
  user: DeviceEvent['user'] = null,
): DeviceEvent {
  const now = new Date().toISOString();
  return {
    _id: crypto.randomUUID(),
    eventId: crypto.randomUUID(),
    device: { _id: deviceId, name: 'Front door' },
    type,
    method: 'code',
    user,
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
    t = await TestApp.start({
      LIVE_SESSION_CHECK_S: '0.2',
      LOGIN_LIMIT_PER_IP: '1000',
      SIGNUP_LIMIT_PER_IP: '1000',
    });
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
    const { token } = await makeOwner(t);
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
    const mine = await makeOwner(t);
    const theirs = await makeOwner(t);
    const client = await open();
    client.send({ type: 'auth', token: mine.token });
    await client.next('ready');
    await expect(client.subscribe(theirs.portalId)).rejects.toThrow('You may not act in that portal');
    await t.app.live.publishDeviceEvent(theirs.portalId, sampleEvent('d-1'));
    await sleep(200);
    expect(client.messages.map((m) => m.type)).toEqual(['ready', 'error']);
  });

  it("delivers a published message to that portal's subscribers only", async () => {
    const alice = await makeOwner(t);
    const bob = await makeOwner(t);
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
    const admin = await makeOwner(t);
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
    const admin = await makeOwner(t);
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

      // A heartbeat that changes nothing is told to no browser; a battery that fell is.
      const status = (battery: number) =>
        JSON.stringify({
          online: true,
          battery,
          lockState: 'locked',
          firmware: 'gate-1',
          credentialsVersion: 0,
          ts: new Date().toISOString(),
        });
      const beforeBeats = client.messages.length;
      await lock.publishAsync(topic('status'), status(64), { qos: 1, retain: true });
      await lock.publishAsync(topic('status'), status(64), { qos: 1, retain: true });
      await lock.publishAsync(topic('status'), status(61), { qos: 1, retain: true });
      expect((await client.next('device.status', { from: beforeBeats })).device).toMatchObject({
        battery: 61,
      });
      expect(client.portalMessages(beforeBeats).filter((m) => m.type === 'device.status')).toHaveLength(1);
    } finally {
      await lock.endAsync(true);
    }
  });

  it('switches portals on a new subscribe', async () => {
    const owner = await makeOwner(t);
    const other = await makeOwner(t);
    await t.addMember(other.portalId, owner.userId, 'user');
    const client = await open();
    await client.join(owner.token, owner.portalId);
    await client.subscribe(other.portalId);

    // A basic user in the other portal: events where they are the person reach them.
    const me = { _id: owner.userId, name: 'Owner' };
    await t.app.live.publish(owner.portalId, {
      type: 'device.event',
      event: sampleEvent('old', 'unlock', me),
    });
    await t.app.live.publish(other.portalId, {
      type: 'device.event',
      event: sampleEvent('new', 'unlock', me),
    });
    const received = await client.next('device.event');
    expect(received.portalId).toBe(other.portalId);
    expect(received.event.device._id).toBe('new');
    await sleep(200);
    expect(client.messages.filter((m) => m.type === 'device.event')).toHaveLength(1);
    expect(t.app.live.stats().portals[owner.portalId]).toBeUndefined();
  });

  it('lets platform staff subscribe to any portal', async () => {
    const { token } = await t.createSuperAdmin();
    const someone = await makeOwner(t);
    const client = await open();
    await client.join(token, someone.portalId);
  });

  it('ends the socket when the person signs out', async () => {
    const person = await makeOwner(t);
    const client = await open();
    await client.join(person.token, person.portalId);
    const logout = await t.request({ method: 'POST', url: '/api3/auth/logout', token: person.token });
    expect(logout.statusCode).toBeLessThan(300);
    expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.unauthorized);
  });

  it('ends the socket when the person is suspended', async () => {
    const admin = await makeOwner(t);
    const member = await makeOwner(t);
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
    const admin = await makeOwner(t);
    const member = await makeOwner(t);
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
    const theirOwn = sampleEvent('after', 'unlock', { _id: member.userId, name: 'Member' });
    await t.app.live.publish(admin.portalId, { type: 'device.event', event: theirOwn });
    await sleep(200);
    expect(client.messages.some((m) => m.type === 'device.event')).toBe(false);
  });

  /** A portal with an admin, a basic user and three locks: one the user reaches directly, one through a group, one not. */
  async function portalWithMember() {
    const admin = await makeOwner(t);
    const member = await makeOwner(t);
    await t.addMember(admin.portalId, member.userId, 'user');
    const asAdmin = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
      const response = await t.request({ method, url: `/api3${url}`, token: admin.token, payload });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
      return response;
    };
    const newLock = async (name: string) =>
      (await asAdmin('POST', '/portal/device/new', { name, model: 'latchkey-sim', timeZone: 'UTC' })).json<{
        device: Device;
        deviceSecret: string;
      }>();
    const direct = await newLock('Own door');
    const viaGroup = await newLock('Group door');
    const other = await newLock('Server room');
    await asAdmin('PUT', `/user/${member.userId}/device/${direct.device._id}`);
    const groupId = (await asAdmin('POST', '/portal/group', { name: 'Staff' })).json<{ _id: string }>()._id;
    await asAdmin('PUT', `/group/${groupId}/user/${member.userId}`);
    await asAdmin('PUT', `/group/${groupId}/device/${viaGroup.device._id}`);
    return { admin, member, direct, viaGroup, other, groupId, asAdmin };
  }

  it('sends a basic user the status of the locks they reach and their own events, nothing else', async () => {
    const { admin, member, direct, viaGroup, other } = await portalWithMember();
    const adminSocket = await open();
    const memberSocket = await open();
    await adminSocket.join(admin.token, admin.portalId);
    await memberSocket.join(member.token, admin.portalId);
    const live = t.app.live;
    const memberPerson = { _id: member.userId, name: 'Test Member' };
    const adminPerson = { _id: admin.userId, name: 'Test Admin' };

    // Not for the basic user: a lock they do not reach (and its alert), someone else's event at
    // their own lock (and its alert), an event without a person, a rule's alert.
    await live.publishDeviceStatus(
      admin.portalId,
      { ...other.device, online: false },
      { online: true, battery: 90 },
    );
    await live.publishDeviceEvent(admin.portalId, sampleEvent(direct.device._id, 'denied', adminPerson));
    await live.publishDeviceEvent(admin.portalId, sampleEvent(direct.device._id, 'tamper'));
    await live.publish(admin.portalId, {
      type: 'notification',
      notification: {
        _id: crypto.randomUUID(),
        at: new Date().toISOString(),
        kind: 'alert',
        title: 'Forced door',
        message: 'Test Admin opened it at night',
        deviceId: direct.device._id,
      },
    });
    // For them: their own event (at a lock they do not reach), and their two locks' status.
    const own = sampleEvent(other.device._id, 'unlock', memberPerson);
    await live.publishDeviceEvent(admin.portalId, own);
    await live.publishDeviceStatus(admin.portalId, { ...direct.device, battery: 12, firmware: 'secret-1' });
    await live.publishDeviceStatus(admin.portalId, viaGroup.device);

    const lastFor = (client: LiveClient) =>
      client.waitFor(
        (m) => m.type === 'device.status' && m.device._id === viaGroup.device._id,
        'the group lock status',
      );
    await lastFor(memberSocket);
    const received = memberSocket.portalMessages();
    expect(received.map((m) => m.type)).toEqual(['device.event', 'device.status', 'device.status']);
    expect(received[0]).toEqual({ type: 'device.event', portalId: admin.portalId, event: own });
    // What GET user/{id}/accessTime shows of a lock: no battery, firmware, serial or model.
    const ownLock = received[1]!.type === 'device.status' ? received[1]!.device : null;
    expect(ownLock).toEqual({
      _id: direct.device._id,
      name: 'Own door',
      timeZone: 'UTC',
      online: direct.device.online,
      lastSeenAt: direct.device.lastSeenAt,
    });

    // The admin gets every message, whole.
    await lastFor(adminSocket);
    expect(adminSocket.portalMessages().map((m) => m.type)).toEqual([
      'device.status',
      'notification',
      'device.event',
      'notification',
      'device.event',
      'notification',
      'notification',
      'device.event',
      'device.status',
      'device.status',
    ]);
    expect(adminSocket.portalMessages()).toContainEqual(
      expect.objectContaining({ device: expect.objectContaining({ battery: 12, firmware: 'secret-1' }) }),
    );
  });

  it("sends a basic user a real lock's status but not its tamper event or the rule's alert", async () => {
    const { admin, member, direct, asAdmin } = await portalWithMember();
    await asAdmin('POST', '/portal/alerts/rules', {
      kind: 'tamper',
      name: 'Forced',
      deviceIds: [direct.device._id],
    });
    const adminSocket = await open();
    const memberSocket = await open();
    await adminSocket.join(admin.token, admin.portalId);
    await memberSocket.join(member.token, admin.portalId);
    const lock = await connectAsync(t.app.deviceLink.transport.url, {
      clientId: direct.device._id,
      username: direct.device._id,
      password: direct.deviceSecret,
      protocolVersion: 4,
    });
    try {
      const topic = (name: string) => `lk/v1/${direct.device._id}/${name}`;
      const status = (battery: number) =>
        JSON.stringify({
          online: true,
          battery,
          lockState: 'locked',
          firmware: 'door-1',
          credentialsVersion: 0,
          ts: new Date().toISOString(),
        });
      await lock.publishAsync(topic('status'), status(70), { qos: 1, retain: true });
      await adminSocket.next('device.status');
      const tamper = { eventId: 'door-evt-1', ts: new Date().toISOString(), type: 'tamper' };
      await lock.publishAsync(
        topic('events'),
        JSON.stringify({ ...tamper, method: null, credentialId: null, reason: null }),
        { qos: 1 },
      );
      // The rule's alert goes out first, then the event.
      await adminSocket.waitFor(
        (m) => m.type === 'device.event' && m.event.type === 'tamper',
        'the tamper event',
      );
      expect(adminSocket.portalMessages()).toContainEqual(
        expect.objectContaining({
          notification: expect.objectContaining({ kind: 'alert', title: expect.any(String) }),
        }),
      );
      // A later status of their lock marks the end: what was published before it and has not
      // arrived will not.
      await lock.publishAsync(topic('status'), status(69), { qos: 1, retain: true });
      const statuses = () => memberSocket.portalMessages().filter((m) => m.type === 'device.status');
      await memberSocket.waitFor(() => statuses().length >= 2, 'two status messages');
      expect(memberSocket.portalMessages().map((m) => m.type)).toEqual(['device.status', 'device.status']);
      expect(statuses()[0]).toMatchObject({ device: { _id: direct.device._id, online: true } });
      expect(statuses()[0]).not.toHaveProperty('device.battery');
    } finally {
      await lock.endAsync(true);
    }
  });

  it('follows the locks a basic user reaches, and a role taken away, at the next session check', async () => {
    const { admin, member, direct, viaGroup, other, groupId, asAdmin } = await portalWithMember();
    const memberSocket = await open();
    await memberSocket.join(member.token, admin.portalId);
    const live = t.app.live;
    const statusOf = (device: Device) => live.publishDeviceStatus(admin.portalId, device);
    const receivedLocks = async (client: LiveClient, from: number, marker: Device) => {
      await client.waitFor(
        (m) => m.type === 'device.status' && m.device._id === marker._id,
        `the status of ${marker.name}`,
        { from },
      );
      return client.portalMessages(from).map((m) => (m.type === 'device.status' ? m.device.name : m.type));
    };

    // Out of the group, into the server room: from the next check on.
    await asAdmin('DELETE', `/group/${groupId}/user/${member.userId}`);
    await asAdmin('PUT', `/user/${member.userId}/device/${other.device._id}`);
    await live.recheckSessions();
    let from = memberSocket.messages.length;
    await statusOf(viaGroup.device);
    await statusOf(other.device);
    await statusOf(direct.device);
    expect(await receivedLocks(memberSocket, from, direct.device)).toEqual(['Server room', 'Own door']);

    // A second admin made a basic user: their socket stops getting alerts and others' locks.
    const deputy = await makeOwner(t);
    await t.addMember(admin.portalId, deputy.userId, 'admin');
    const deputySocket = await open();
    await deputySocket.join(deputy.token, admin.portalId);
    from = deputySocket.messages.length;
    await statusOf(viaGroup.device);
    expect(await receivedLocks(deputySocket, from, viaGroup.device)).toEqual(['Group door']);
    await t.app.db
      .updateTable('memberships')
      .set({ role: 'user' })
      .where('portal_id', '=', admin.portalId)
      .where('user_id', '=', deputy.userId)
      .execute();
    await live.recheckSessions();
    from = deputySocket.messages.length;
    await live.publishDeviceStatus(
      admin.portalId,
      { ...other.device, online: false },
      { online: true, battery: 50 },
    );
    await live.publishDeviceEvent(admin.portalId, sampleEvent(direct.device._id, 'tamper'));
    const theirs = sampleEvent(direct.device._id, 'unlock', { _id: deputy.userId, name: 'Deputy' });
    await live.publishDeviceEvent(admin.portalId, theirs);
    await deputySocket.waitFor(
      (m) => m.type === 'device.event' && m.event._id === theirs._id,
      'their own event',
    );
    expect(deputySocket.portalMessages(from)).toEqual([
      { type: 'device.event', portalId: admin.portalId, event: theirs },
    ]);
  });

  it('sends a page what was published while it loaded, when it asks, and says whether that was all', async () => {
    const admin = await makeOwner(t);
    const loaded = await open();
    await loaded.authenticate(admin.token);
    const before = sampleEvent('lock-1', 'unlock');
    await t.app.live.publishDeviceEvent(admin.portalId, before);
    await sleep(1000);
    const during = sampleEvent('lock-2', 'tamper');
    await t.app.live.publishDeviceEvent(admin.portalId, during);

    // A page that loaded for the last half second: the event of that time, before `subscribed`.
    expect(await loaded.subscribe(admin.portalId, 500)).toEqual({
      type: 'subscribed',
      portalId: admin.portalId,
      replayed: true,
    });
    expect(loaded.portalMessages().map((m) => m.type)).toEqual(['device.event', 'notification']);
    expect(loaded.portalMessages()[0]).toEqual({
      type: 'device.event',
      portalId: admin.portalId,
      event: during,
    });
    expect(loaded.messages.at(-1)!.type).toBe('subscribed');

    // A socket is sent what it missed once: asking again gets nothing, and is not vouched for.
    const from = loaded.messages.length;
    expect(await loaded.subscribe(admin.portalId, 5000)).toMatchObject({ replayed: false });
    expect(loaded.portalMessages(from)).toEqual([]);

    // Asking for nothing, or for more than the server keeps: nothing sent again, and not vouched for.
    const plain = await open();
    expect(await plain.join(admin.token, admin.portalId)).toMatchObject({ replayed: false });
    expect(plain.portalMessages()).toEqual([]);
    const tooLong = await open();
    tooLong.send({ type: 'auth', token: admin.token });
    await tooLong.next('ready');
    tooLong.send({ type: 'subscribe', portalId: admin.portalId, missedMs: 600_000 });
    expect((await tooLong.closed).code).toBe(LIVE_CLOSE_CODES.badMessage);

    // Live messages follow as before.
    const after = sampleEvent('lock-3', 'unlock');
    await t.app.live.publishDeviceEvent(admin.portalId, after);
    expect(
      await loaded.waitFor((m) => m.type === 'device.event' && m.event._id === after._id, 'the next event'),
    ).toBeTruthy();
  });

  it('sends a basic user again only what they would have been sent live', async () => {
    const { admin, member, direct } = await portalWithMember();
    const adminPerson = { _id: admin.userId, name: 'Test Admin' };
    const memberPerson = { _id: member.userId, name: 'Test Member' };
    await t.app.live.publishDeviceEvent(
      admin.portalId,
      sampleEvent(direct.device._id, 'denied', adminPerson),
    );
    const own = sampleEvent(direct.device._id, 'unlock', memberPerson);
    await t.app.live.publishDeviceEvent(admin.portalId, own);
    const memberSocket = await open();
    expect(await memberSocket.join(member.token, admin.portalId, 5000)).toMatchObject({ replayed: true });
    expect(memberSocket.portalMessages()).toEqual([
      { type: 'device.event', portalId: admin.portalId, event: own },
    ]);
  });

  it('cuts off a client that floods it with messages', async () => {
    const person = await makeOwner(t);
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
    const person = await makeOwner(t);
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
  let secondUrl: string;
  beforeAll(async () => {
    // Two servers on one database, as behind a load balancer.
    first = await TestApp.start({ REDIS_URL: redisUrl! });
    second = await TestApp.start({
      REDIS_URL: redisUrl!,
      DATA_DIR: first.app.config.DATA_DIR,
      ...(first.app.config.DATABASE_URL && { DATABASE_URL: first.app.config.DATABASE_URL }),
    });
    secondUrl = await listen(second);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('delivers a message published on one server to a socket on the other', async () => {
    const person = await makeOwner(first);
    const outsider = await makeOwner(first);
    const client = await LiveClient.open(secondUrl);
    const outsiderClient = await LiveClient.open(secondUrl);
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

  it('sends again only what this server saw of the portal: from when it began watching it', async () => {
    const person = await makeOwner(first);
    const event = sampleEvent('lock-5', 'unlock');
    // Nobody on the second server watched the portal when this went out.
    await first.app.live.publishDeviceEvent(person.portalId, event);
    const firstTab = await LiveClient.open(secondUrl);
    const secondTab = await LiveClient.open(secondUrl);
    try {
      expect(await firstTab.join(person.token, person.portalId, 5000)).toMatchObject({ replayed: false });
      expect(firstTab.portalMessages()).toEqual([]);
      // Watched from here on: a later tab gets what was published since, vouched for.
      await secondTab.authenticate(person.token);
      await sleep(1000);
      const next = sampleEvent('lock-6', 'unlock');
      await first.app.live.publishDeviceEvent(person.portalId, next);
      await firstTab.waitFor((m) => m.type === 'device.event' && m.event._id === next._id, 'the next event');
      expect(await secondTab.subscribe(person.portalId, 500)).toMatchObject({ replayed: true });
      expect(secondTab.portalMessages()).toEqual([
        { type: 'device.event', portalId: person.portalId, event: next },
      ]);
    } finally {
      firstTab.close();
      secondTab.close();
    }
  });

  it('sends a basic user only their own events, whichever server published them', async () => {
    const admin = await makeOwner(first);
    const member = await makeOwner(first);
    await first.addMember(admin.portalId, member.userId, 'user');
    const client = await LiveClient.open(secondUrl);
    try {
      await client.join(member.token, admin.portalId);
      const someoneElse = sampleEvent('lock-1', 'denied', { _id: admin.userId, name: 'Admin' });
      const own = sampleEvent('lock-2', 'unlock', { _id: member.userId, name: 'Member' });
      await first.app.live.publishDeviceEvent(admin.portalId, someoneElse);
      await first.app.live.publishDeviceEvent(admin.portalId, own);
      // One Redis channel per portal keeps the order: the first two went before this one.
      await client.waitFor((m) => m.type === 'device.event' && m.event._id === own._id, 'their own event');
      expect(client.portalMessages()).toEqual([
        { type: 'device.event', portalId: admin.portalId, event: own },
      ]);
    } finally {
      client.close();
    }
  });
});

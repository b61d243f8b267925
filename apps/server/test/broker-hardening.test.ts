import crypto from 'node:crypto';
import net from 'node:net';
import {
  DEVICE_MAX_PACKET_BYTES,
  deviceTopic,
  type DeviceCommand,
  type EventsAck,
  type LockEvent,
} from '@latchkey/shared';
import { MqttClient, type IClientOptions } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TestApp } from './test-app';
import { waitFor } from './net-helpers';

/**
 * The embedded broker against a hostile peer (issue 10, defects 3, 5, 6 and the 501-event batch):
 * a lock's credentials with another lock's client id, packets too large to hold, connections that
 * never log in, floods of wrong secrets, and events the database cannot store.
 */

interface Lock {
  deviceId: string;
  secret: string;
}

const clients: MqttClient[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
  for (const socket of sockets.splice(0)) socket.destroy();
});

/**
 * An MQTT 3.1.1 client of the embedded broker; `localAddress` (another loopback address) makes it
 * come from elsewhere, for the per-address limits.
 */
function connectClient(
  url: string,
  options: IClientOptions & { localAddress?: string },
): Promise<MqttClient> {
  const { port, hostname } = new URL(url);
  const { localAddress, ...rest } = options;
  const client = new MqttClient(() => net.connect({ port: Number(port), host: hostname, localAddress }), {
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    ...rest,
  });
  clients.push(client);
  // Collected from the first packet on: a persistent session's queue arrives with the CONNACK.
  const received = new Map<string, unknown[]>();
  inboxes.set(client, received);
  client.on('message', (topic, payload) => {
    received.set(topic, [
      ...(received.get(topic) ?? []),
      payload.length ? JSON.parse(String(payload)) : null,
    ]);
  });
  return new Promise((resolve, reject) => {
    client.once('connect', () => resolve(client));
    client.once('error', (error) => {
      client.end(true);
      reject(error);
    });
    client.once('close', () => reject(new Error('closed before CONNACK')));
  });
}

const asLock = (lock: Lock, extra: IClientOptions & { localAddress?: string } = {}) => ({
  clientId: lock.deviceId,
  username: lock.deviceId,
  password: lock.secret,
  ...extra,
});

/** What each client of connectClient has received, per topic. */
const inboxes = new WeakMap<MqttClient, Map<string, unknown[]>>();
const inbox = (client: MqttClient) => inboxes.get(client)!;

/** A raw TCP connection to the broker (to send what no MQTT library would). */
function rawSocket(url: string, localAddress?: string): Promise<net.Socket> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port: Number(port), host: hostname, localAddress }, () => resolve(socket));
    socket.once('error', reject);
    sockets.push(socket);
  });
}

const whenClosed = (socket: net.Socket) =>
  new Promise<void>((resolve) => {
    if (socket.destroyed) return resolve();
    socket.on('error', () => undefined);
    socket.once('close', () => resolve());
  });

function lockEvent(overrides: Partial<LockEvent> = {}): LockEvent {
  return {
    eventId: crypto.randomUUID(),
    ts: new Date().toISOString(),
    type: 'unlock',
    method: 'code',
    credentialId: null,
    reason: null,
    commandId: null,
    ...overrides,
  };
}

async function addLock(t: TestApp, token: string): Promise<Lock> {
  const response = await t.request({
    method: 'POST',
    url: '/api3/portal/device/new',
    token,
    payload: { name: `Door ${crypto.randomUUID().slice(0, 4)}`, model: 'latchkey-sim', timeZone: 'UTC' },
  });
  expect(response.statusCode).toBe(201);
  return { deviceId: response.json().device._id, secret: response.json().deviceSecret };
}

async function storedEventIds(t: TestApp, deviceId: string): Promise<string[]> {
  const rows = await t.app.db
    .selectFrom('device_events')
    .select('event_id')
    .where('device_id', '=', deviceId)
    .execute();
  return rows.map((row) => row.event_id).sort();
}

describe('the client id is bound to the lock (defect 3)', () => {
  let t: TestApp;
  let admin: { token: string; portalId: string };

  beforeAll(async () => {
    t = await TestApp.start({ LOGIN_LIMIT_PER_IP: '1000' });
    admin = await t.signUp();
  });
  afterAll(() => t.close());

  const online = async (deviceId: string) =>
    (await t.request({ method: 'GET', url: `/api3/portal/device/${deviceId}`, token: admin.token })).json()
      .online as boolean;

  const sendUnlock = async (deviceId: string) => {
    const sent = await t.request({
      method: 'POST',
      url: `/api3/device/${deviceId}/command`,
      token: admin.token,
      payload: { action: 'unlock' },
    });
    expect(sent.statusCode).toBe(202);
    return sent.json().commandId as string;
  };

  it("refuses a lock's credentials with another lock's client id; the other lock stays connected and gets its own commands", async () => {
    const url = t.app.deviceLink.transport.url;
    const attacker = await addLock(t, admin.token);
    const victim = await addLock(t, admin.token);

    // The victim keeps a persistent session (clean=false, which the protocol allows).
    const real = await connectClient(url, asLock(victim, { clean: false }));
    const realInbox = inbox(real);
    const topic = (name: Parameters<typeof deviceTopic>[1]) => deviceTopic(victim.deviceId, name);
    await real.subscribeAsync([topic('credentials'), topic('commands')], { qos: 1 });
    await real.publishAsync(
      topic('status'),
      JSON.stringify({
        online: true,
        battery: 80,
        lockState: 'locked',
        firmware: 't-1',
        credentialsVersion: 0,
        ts: new Date().toISOString(),
      }),
      { qos: 1, retain: true },
    );
    await waitFor(() => online(victim.deviceId), 'the victim online');

    // The attacker's own valid credentials, the victim's id as client id: refused at CONNECT.
    await expect(
      connectClient(url, { ...asLock(attacker), clientId: victim.deviceId, clean: false }),
    ).rejects.toThrow(/Identifier rejected/i);
    // So is a client id that names nobody in particular (the broker would make one up).
    await expect(connectClient(url, { ...asLock(attacker), clientId: '' })).rejects.toThrow(
      /Identifier rejected/i,
    );

    // The victim's connection was never replaced: a command sent now reaches it there.
    const commandId = await sendUnlock(victim.deviceId);
    await waitFor(
      () =>
        (realInbox.get(topic('commands')) as DeviceCommand[] | undefined)?.find(
          (c) => c.commandId === commandId,
        ),
      'the command on the victim’s connection',
    );
    expect(real.connected).toBe(true);
    expect(await online(victim.deviceId)).toBe(true);

    // Away with a persistent session, its queued command is not handed to the attacker either.
    await real.endAsync();
    const queued = await sendUnlock(victim.deviceId);
    await expect(
      connectClient(url, { ...asLock(attacker), clientId: victim.deviceId, clean: false }),
    ).rejects.toThrow(/Identifier rejected/i);
    const back = await connectClient(url, asLock(victim, { clean: false }));
    const backInbox = inbox(back);
    await waitFor(
      () =>
        (backInbox.get(topic('commands')) as DeviceCommand[] | undefined)?.find(
          (c) => c.commandId === queued,
        ),
      'the queued command on the victim’s return',
    );
  });
});

describe('broker limits before and after authentication (defect 5)', () => {
  let t: TestApp;
  let admin: { token: string; portalId: string };

  beforeAll(async () => {
    t = await TestApp.start({
      LOGIN_LIMIT_PER_IP: '1000',
      // Long enough that no connection here is closed for being slow: the size cap decides.
      MQTT_CONNECT_TIMEOUT_S: '60',
    });
    admin = await t.signUp();
  });
  afterAll(() => t.close());

  it('closes a connection whose CONNECT claims more than a login can need, before receiving it', async () => {
    const socket = await rawSocket(t.app.deviceLink.transport.url);
    const closed = whenClosed(socket);
    // A CONNECT announcing 200 MB (remaining length as MQTT's variable-length integer), then a start.
    const header = Buffer.from([0x10, 0x80, 0x80, 0x80, 0x64]);
    socket.write(Buffer.concat([header, Buffer.alloc(64 * 1024, 0x41)]));
    await closed;
    expect(socket.destroyed).toBe(true);
  });

  it("closes a lock's connection on a PUBLISH over the packet limit, and stores nothing of it", async () => {
    const lock = await addLock(t, admin.token);
    const client = await connectClient(t.app.deviceLink.transport.url, asLock(lock));
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    const event = lockEvent();
    const padded = JSON.stringify([event]).padEnd(DEVICE_MAX_PACKET_BYTES + 1, ' ');
    void client.publishAsync(deviceTopic(lock.deviceId, 'events'), padded, { qos: 1 }).catch(() => undefined);
    await closed;
    expect(await storedEventIds(t, lock.deviceId)).toEqual([]);
  });

  it('takes the largest legitimate message: 500 events with every field at its longest', async () => {
    const lock = await addLock(t, admin.token);
    const client = await connectClient(t.app.deviceLink.transport.url, asLock(lock));
    const received = inbox(client);
    await client.subscribeAsync(deviceTopic(lock.deviceId, 'events/ack'), { qos: 1 });
    const longest = (prefix: string, i: number) => `${prefix}${i}-`.padEnd(64, 'x');
    const batch = Array.from({ length: 500 }, (_, i) =>
      lockEvent({
        eventId: longest('e', i),
        ts: '2026-11-23T14:05:12.34567890123456+14:00', // 40 characters, the most
        type: 'denied',
        method: 'fingerprint',
        credentialId: longest('c', i),
        reason: 'unknown_credential',
        commandId: longest('m', i),
      }),
    );
    const payload = JSON.stringify(batch);
    // The limit leaves room for this batch several times over (docs/device-protocol.md §1).
    expect(Buffer.byteLength(payload) * 3).toBeLessThan(DEVICE_MAX_PACKET_BYTES);
    await client.publishAsync(deviceTopic(lock.deviceId, 'events'), payload, { qos: 1 });
    const ack = await waitFor(
      () => received.get(deviceTopic(lock.deviceId, 'events/ack'))?.[0] as EventsAck | undefined,
      'the ack',
    );
    expect(ack.eventIds).toHaveLength(500);
    expect(await storedEventIds(t, lock.deviceId)).toHaveLength(500);
  });

  it('refuses connections over the per-address limit and keeps serving other addresses', async () => {
    const limited = await TestApp.start({ MQTT_MAX_CONNECTIONS_PER_IP: '3', MQTT_CONNECT_TIMEOUT_S: '60' });
    try {
      const url = limited.app.deviceLink.transport.url;
      const held = [];
      for (let i = 0; i < 3; i++) held.push(await rawSocket(url, '127.0.0.3'));
      // Three idle connections stay open; the fourth from the same address is closed at once.
      const fourth = await rawSocket(url, '127.0.0.3');
      await whenClosed(fourth);
      expect(held.every((socket) => !socket.destroyed)).toBe(true);

      const owner = await limited.signUp();
      const lock = await addLock(limited, owner.token);
      const client = await connectClient(url, asLock(lock));
      expect(client.connected).toBe(true);
      // A freed place can be taken again (once the server has seen the close).
      held[0]!.destroy();
      const other = await addLock(limited, owner.token);
      const again = await waitFor(
        () => connectClient(url, asLock(other, { localAddress: '127.0.0.3' })).catch(() => undefined),
        'a place for a new connection',
      );
      expect(again.connected).toBe(true);
    } finally {
      await limited.close();
    }
  });
});

describe('an address with a connection limit of its own (MQTT_CONNECTIONS_BY_IP: a bridge)', () => {
  it('gives that address its own room while every other address keeps the common limit', async () => {
    const limited = await TestApp.start({
      MQTT_MAX_CONNECTIONS_PER_IP: '2',
      MQTT_CONNECTIONS_BY_IP: '127.0.0.4=4',
      MQTT_CONNECT_TIMEOUT_S: '60',
    });
    try {
      const url = limited.app.deviceLink.transport.url;
      const bridge = [];
      for (let i = 0; i < 4; i++) bridge.push(await rawSocket(url, '127.0.0.4'));
      const overBridge = await rawSocket(url, '127.0.0.4');
      await whenClosed(overBridge);
      const others = [await rawSocket(url, '127.0.0.5'), await rawSocket(url, '127.0.0.5')];
      const overOther = await rawSocket(url, '127.0.0.5');
      await whenClosed(overOther);
      expect([...bridge, ...others].every((socket) => !socket.destroyed)).toBe(true);
    } finally {
      await limited.close();
    }
  });

  it('refuses to start with a value that is not address=limit pairs', async () => {
    await expect(TestApp.start({ MQTT_CONNECTIONS_BY_IP: 'bridge-host=600' })).rejects.toThrow(
      /address=limit/,
    );
  });
});

describe('a connection that does not log in (defect 5)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ MQTT_CONNECT_TIMEOUT_S: '0.3' });
  });
  afterAll(() => t.close());

  it('is closed after MQTT_CONNECT_TIMEOUT_S when it sends nothing, or only part of a CONNECT', async () => {
    const silent = await rawSocket(t.app.deviceLink.transport.url);
    const partial = await rawSocket(t.app.deviceLink.transport.url);
    partial.write(Buffer.from([0x10, 0x30, 0x00, 0x04, 0x4d]));
    await Promise.all([whenClosed(silent), whenClosed(partial)]);
  });

  it('lets a lock that logs in promptly stay connected', async () => {
    const admin = await t.signUp();
    const lock = await addLock(t, admin.token);
    const client = await connectClient(t.app.deviceLink.transport.url, asLock(lock));
    const ack = inbox(client);
    await client.subscribeAsync(deviceTopic(lock.deviceId, 'events/ack'), { qos: 1 });
    // Well past the timeout, the logged-in lock is still served.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const event = lockEvent();
    await client.publishAsync(deviceTopic(lock.deviceId, 'events'), JSON.stringify(event), { qos: 1 });
    await waitFor(() => ack.get(deviceTopic(lock.deviceId, 'events/ack')), 'the ack');
    expect(client.connected).toBe(true);
  });
});

describe('a flood of wrong secrets from one address (defect 5)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await TestApp.start({ MQTT_FAILED_CONNECTS_PER_IP: '5' });
  });
  afterAll(() => t.close());

  it('is throttled after MQTT_FAILED_CONNECTS_PER_IP failures, logged once, and other addresses still connect', async () => {
    const url = t.app.deviceLink.transport.url;
    const admin = await t.signUp();
    const lock = await addLock(t, admin.token);
    const warn = vi.spyOn(t.app.log, 'warn');
    const outcomes: string[] = [];
    for (let attempt = 0; attempt < 40; attempt++) {
      const wrong = { ...lock, secret: crypto.randomBytes(32).toString('base64url') };
      outcomes.push(
        await connectClient(url, asLock(wrong, { localAddress: '127.0.0.2' })).then(
          () => 'connected',
          (error: Error) => error.message,
        ),
      );
    }
    expect(outcomes.slice(0, 5).every((outcome) => /Bad username or password/i.test(outcome))).toBe(true);
    expect(outcomes.slice(5).every((outcome) => /Server unavailable/i.test(outcome))).toBe(true);
    // Even the right secret waits from there: the address is blocked, not the lock.
    await expect(connectClient(url, asLock(lock, { localAddress: '127.0.0.2' }))).rejects.toThrow(
      /Server unavailable/i,
    );
    // One line for the first failure and one for the block, not forty.
    const lines = warn.mock.calls.filter((call) => JSON.stringify(call).includes('mqtt'));
    expect(lines.length).toBeLessThanOrEqual(2);
    warn.mockRestore();

    // The same lock from another address logs in.
    const client = await connectClient(url, asLock(lock));
    expect(client.connected).toBe(true);
  });
});

describe('events the protocol or the database refuses (defect 6) and oversized batches (defect 9)', () => {
  let t: TestApp;
  let admin: { token: string; portalId: string };

  beforeAll(async () => {
    t = await TestApp.start({ LOGIN_LIMIT_PER_IP: '1000' });
    admin = await t.signUp();
  });
  afterAll(() => t.close());

  const connectWithAcks = async (lock: Lock) => {
    const client = await connectClient(t.app.deviceLink.transport.url, asLock(lock));
    const received = inbox(client);
    await client.subscribeAsync(deviceTopic(lock.deviceId, 'events/ack'), { qos: 1 });
    const acks = () => (received.get(deviceTopic(lock.deviceId, 'events/ack')) ?? []) as EventsAck[];
    return { client, acks };
  };

  it('stores and acknowledges the valid events of a batch with a NUL and a year 0000, and keeps the connection', async () => {
    const lock = await addLock(t, admin.token);
    const { client, acks } = await connectWithAcks(lock);
    const closed = vi.fn();
    client.on('close', closed);
    const valid = [lockEvent(), lockEvent(), lockEvent()];
    const poison = [
      lockEvent({ eventId: 'nul\u0000id' }),
      lockEvent({ credentialId: 'card\u0000' }),
      lockEvent({ ts: '0000-01-01T00:00:00.000Z' }),
      // Year 1 at +14:00 is year 0000 in UTC, as the database would store it.
      lockEvent({ ts: '0001-01-01T00:00:00+14:00' }),
    ];
    await client.publishAsync(
      deviceTopic(lock.deviceId, 'events'),
      JSON.stringify([valid[0], poison[0], poison[1], valid[1], poison[2], poison[3], valid[2]]),
      { qos: 1 },
    );
    const ack = await waitFor(() => acks()[0], 'the ack');
    expect([...ack.eventIds].sort()).toEqual(valid.map((e) => e.eventId).sort());
    expect(await storedEventIds(t, lock.deviceId)).toEqual(valid.map((e) => e.eventId).sort());

    // The same connection goes on: the next event is stored and acknowledged.
    const next = lockEvent();
    await client.publishAsync(deviceTopic(lock.deviceId, 'events'), JSON.stringify(next), { qos: 1 });
    await waitFor(() => acks()[1], 'the next ack');
    expect(acks()[1]).toEqual({ eventIds: [next.eventId] });
    expect(closed).not.toHaveBeenCalled();
  });

  it('takes the first 500 events of a larger batch, acknowledges those, says why in the log; the rest come again', async () => {
    const lock = await addLock(t, admin.token);
    const { client, acks } = await connectWithAcks(lock);
    const warn = vi.spyOn(t.app.log, 'warn');
    const batch = Array.from({ length: 501 }, () => lockEvent());
    await client.publishAsync(deviceTopic(lock.deviceId, 'events'), JSON.stringify(batch), { qos: 1 });
    const ack = await waitFor(() => acks()[0], 'the ack');
    expect([...ack.eventIds].sort()).toEqual(
      batch
        .slice(0, 500)
        .map((e) => e.eventId)
        .sort(),
    );
    expect(await storedEventIds(t, lock.deviceId)).toHaveLength(500);
    expect(
      warn.mock.calls.some(
        (call) => /more than 500/.test(JSON.stringify(call)) && JSON.stringify(call).includes('1'),
      ),
    ).toBe(true);
    warn.mockRestore();

    // The lock still holds the unacknowledged one and sends it again.
    await client.publishAsync(deviceTopic(lock.deviceId, 'events'), JSON.stringify([batch[500]]), { qos: 1 });
    await waitFor(() => acks()[1], 'the second ack');
    expect(acks()[1]).toEqual({ eventIds: [batch[500]!.eventId] });
    expect(await storedEventIds(t, lock.deviceId)).toHaveLength(501);
  });
});

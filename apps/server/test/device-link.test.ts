import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { promisify } from 'node:util';
import {
  deviceTopic,
  LOCK_OFFLINE,
  LOCKOUT_IN_EFFECT,
  type CredentialSet,
  type DeviceCommand,
  type DeviceStatus,
  type DeviceSync,
  type LockEvent,
} from '@latchkey/shared';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { TestApp } from './test-app';
import { waitFor } from './net-helpers';

/**
 * The device link end to end: a real MQTT client plays the lock against the embedded broker of a
 * real server (on a free port), and the portal is driven through its API.
 */

const run = promisify(execFile);

interface Portal {
  admin: string;
  portalId: string;
  memberId: string;
  memberToken: string;
}

interface Lock {
  deviceId: string;
  secret: string;
}

/** An MQTT client speaking as a lock, collecting what it receives per topic. */
class TestLock {
  readonly received = new Map<string, unknown[]>();
  private constructor(
    readonly client: MqttClient,
    readonly deviceId: string,
  ) {
    client.on('message', (topic, payload) => {
      const list = this.received.get(topic) ?? [];
      list.push(payload.length === 0 ? null : JSON.parse(payload.toString()));
      this.received.set(topic, list);
    });
  }

  static async connect(url: string, lock: Lock, options: { secret?: string } = {}) {
    const client = await mqtt.connectAsync(url, {
      clientId: lock.deviceId,
      username: lock.deviceId,
      password: options.secret ?? lock.secret,
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 3000,
      will: {
        topic: deviceTopic(lock.deviceId, 'status'),
        payload: Buffer.from(JSON.stringify({ online: false })),
        qos: 1,
        retain: true,
      },
    });
    return new TestLock(client, lock.deviceId);
  }

  topic(name: Parameters<typeof deviceTopic>[1]) {
    return deviceTopic(this.deviceId, name);
  }

  async subscribeAll() {
    return this.client.subscribeAsync(
      [this.topic('credentials'), this.topic('events/ack'), this.topic('commands')],
      { qos: 1 },
    );
  }

  messages<T>(name: Parameters<typeof deviceTopic>[1]): T[] {
    return (this.received.get(this.topic(name)) ?? []) as T[];
  }

  async publish(name: Parameters<typeof deviceTopic>[1], payload: unknown, retain = false) {
    await this.client.publishAsync(this.topic(name), JSON.stringify(payload), { qos: 1, retain });
  }

  async reportStatus(overrides: Partial<Extract<DeviceStatus, { online: true }>> = {}) {
    await this.publish(
      'status',
      {
        online: true,
        battery: 77,
        lockState: 'locked',
        firmware: 'test-1.0',
        credentialsVersion: 0,
        ts: new Date().toISOString(),
        ...overrides,
      },
      true,
    );
  }

  /** The newest credential set received (retained or live). */
  latestCredentials(): CredentialSet | undefined {
    const sets = this.messages<CredentialSet | null>('credentials').filter(Boolean) as CredentialSet[];
    return sets.at(-1);
  }

  end(force = false) {
    return this.client.endAsync(force);
  }
}

const locksToClose: TestLock[] = [];
async function connectLock(t: TestApp, lock: Lock) {
  const testLock = await TestLock.connect(t.app.deviceLink.transport.url, lock);
  locksToClose.push(testLock);
  return testLock;
}
afterEach(async () => {
  await Promise.all(locksToClose.splice(0).map((lock) => lock.end(true)));
});

/** A lock connected and reported online, as a real lock is before anyone can command it. */
async function connectOnline(t: TestApp, portal: Portal, lock: Lock) {
  const client = await connectLock(t, lock);
  await client.subscribeAll();
  await client.reportStatus();
  await waitFor(async () => (await deviceOf(t, portal, lock.deviceId)).online === true, 'online');
  return client;
}

async function makePortal(t: TestApp): Promise<Portal> {
  const admin = await t.signUp();
  const member = await t.signUp();
  await t.addMember(admin.portalId, member.userId, 'user');
  return { admin: admin.token, portalId: admin.portalId, memberId: member.userId, memberToken: member.token };
}

async function addLock(t: TestApp, portal: Portal, grantMember = true): Promise<Lock> {
  const response = await t.request({
    method: 'POST',
    url: '/api3/portal/device/new',
    token: portal.admin,
    payload: { name: `Door ${crypto.randomUUID().slice(0, 4)}`, model: 'latchkey-sim', timeZone: 'UTC' },
  });
  expect(response.statusCode).toBe(201);
  const { device, deviceSecret } = response.json();
  if (grantMember) {
    const grant = await t.request({
      method: 'PUT',
      url: `/api3/user/${portal.memberId}/device/${device._id}`,
      token: portal.admin,
    });
    expect(grant.statusCode).toBeLessThan(300);
  }
  // Adding the lock and the grant are two changes, each published as it commits; the lock is to
  // find the set of both.
  await t.app.deviceLink.flushScheduledSyncs();
  return { deviceId: device._id, secret: deviceSecret };
}

async function syncOf(t: TestApp, portal: Portal, deviceId: string): Promise<DeviceSync> {
  const response = await t.request({
    method: 'GET',
    url: `/api3/device/${deviceId}/sync`,
    token: portal.admin,
  });
  expect(response.statusCode).toBe(200);
  return response.json<DeviceSync>();
}

async function deviceOf(t: TestApp, portal: Portal, deviceId: string) {
  const response = await t.request({
    method: 'GET',
    url: `/api3/portal/device/${deviceId}`,
    token: portal.admin,
  });
  expect(response.statusCode).toBe(200);
  return response.json();
}

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

describe('device link (embedded broker)', () => {
  let t: TestApp;
  let portal: Portal;

  beforeAll(async () => {
    t = await TestApp.start({ LOGIN_LIMIT_PER_IP: '1000' });
    portal = await makePortal(t);
  });
  afterAll(() => t.close());

  it('listens on a free port when MQTT_PORT is 0', () => {
    expect(t.app.deviceLink.transport.url).toMatch(/^mqtt:\/\/127\.0\.0\.1:\d+$/);
    expect(t.app.deviceLink.transport.url).not.toMatch(/:1883$/);
  });

  it('refuses a lock with a wrong secret, an unknown lock and a missing password', async () => {
    const lock = await addLock(t, portal);
    const url = t.app.deviceLink.transport.url;
    await expect(TestLock.connect(url, lock, { secret: 'not-the-secret' })).rejects.toThrow(
      /Bad username or password/i,
    );
    await expect(
      TestLock.connect(url, { deviceId: crypto.randomUUID(), secret: lock.secret }),
    ).rejects.toThrow(/Bad username or password/i);
    const good = await connectLock(t, lock);
    expect(good.client.connected).toBe(true);
  });

  it("refuses to let a lock publish under another lock's prefix or subscribe to its topics", async () => {
    const mine = await addLock(t, portal);
    const theirs = await addLock(t, portal);
    const lock = await connectLock(t, mine);

    // The broker answers a refused topic with the failure code 0x80, which mqtt.js raises.
    await expect(
      lock.client.subscribeAsync(deviceTopic(theirs.deviceId, 'credentials'), { qos: 1 }),
    ).rejects.toThrow(/Subscribe error/);
    await expect(lock.client.subscribeAsync('lk/v1/#', { qos: 1 })).rejects.toThrow(/Subscribe error/);
    const own = await lock.client.subscribeAsync(lock.topic('credentials'), { qos: 1 });
    expect(own[0]!.qos).toBe(1);

    const forged = lockEvent();
    // The ACL refuses it before anything is delivered, and the broker drops the connection (MQTT
    // 3.1.1 has no way to refuse one publish), so the PUBACK never comes.
    const closed = new Promise((resolve) => lock.client.once('close', () => resolve(undefined)));
    void lock.client
      .publishAsync(deviceTopic(theirs.deviceId, 'events'), JSON.stringify(forged), { qos: 1 })
      .catch(() => undefined);
    await closed;
    const stored = await t.app.db
      .selectFrom('device_events')
      .select('id')
      .where('event_id', '=', forged.eventId)
      .execute();
    expect(stored).toEqual([]);
  });

  it('updates the lock from its status and takes it offline on its last will', async () => {
    const lock = await addLock(t, portal);
    const client = await connectLock(t, lock);
    await client.reportStatus({ battery: 64, lockState: 'unlocked', firmware: 'fw-2.3.1' });
    const device = await waitFor(async () => {
      const d = await deviceOf(t, portal, lock.deviceId);
      return d.battery === 64 ? d : undefined;
    }, 'status to be stored');
    expect(device).toMatchObject({ online: true, lockState: 'unlocked', firmware: 'fw-2.3.1' });
    expect(device.lastSeenAt).not.toBeNull();

    // Cutting the connection without DISCONNECT makes the broker publish the last will.
    client.client.stream.destroy();
    await waitFor(async () => (await deviceOf(t, portal, lock.deviceId)).online === false, 'the last will');
  });

  it('stores an event sent twice once, acknowledges both and names the person behind the credential', async () => {
    const lock = await addLock(t, portal);
    const card = await t.request({
      method: 'POST',
      url: '/api3/portal/rfid',
      token: portal.admin,
      payload: { uid: crypto.randomBytes(4).toString('hex'), userId: portal.memberId },
    });
    expect(card.statusCode).toBeLessThan(300);
    const client = await connectLock(t, lock);
    await client.subscribeAll();
    const event = lockEvent({ method: 'rfid', credentialId: card.json()._id });
    await client.publish('events', event);
    await client.publish('events', [event]);
    await waitFor(() => client.messages('events/ack').length >= 2 || undefined, 'two acks');
    expect(client.messages('events/ack')).toEqual([
      { eventIds: [event.eventId] },
      { eventIds: [event.eventId] },
    ]);

    const rows = await t.app.db
      .selectFrom('device_events')
      .selectAll()
      .where('device_id', '=', lock.deviceId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event_id: event.eventId, user_id: portal.memberId, type: 'unlock' });

    const logs = await t.request({ method: 'GET', url: '/api3/portal/device/logs', token: portal.admin });
    const logged = logs.json().items.find((item: { eventId: string }) => item.eventId === event.eventId);
    expect(logged.user._id).toBe(portal.memberId);
  });

  it('drops invalid payloads without answering or crashing, and keeps serving the lock', async () => {
    const lock = await addLock(t, portal);
    const client = await connectLock(t, lock);
    await client.subscribeAll();
    await client.client.publishAsync(client.topic('events'), 'not json', { qos: 1 });
    await client.publish('events', { eventId: 'x', type: 'teleport' });
    await client.publish('status', { online: true, battery: 500 });
    const good = lockEvent();
    await client.publish('events', [{ eventId: 'bad' }, good]);
    await waitFor(() => client.messages('events/ack').length >= 1 || undefined, 'an ack');
    expect(client.messages('events/ack')).toEqual([{ eventIds: [good.eventId] }]);
  });

  it('publishes a new credential set after each change; a lock away during three gets the latest on reconnect', async () => {
    const lock = await addLock(t, portal);
    let client = await connectLock(t, lock);
    await client.subscribeAll();
    await client.reportStatus();
    const first = await waitFor(() => client.latestCredentials(), 'the first credential set');
    expect(first.deviceId).toBe(lock.deviceId);
    expect(first.entries.map((e) => e.credentialId)).toContain(`remote:${portal.memberId}`);
    await client.end(true);

    // Three changes while the lock is away: each makes a version; only the last matters to it.
    let code = '';
    for (let change = 1; change <= 3; change++) {
      code = String(crypto.randomInt(10_000_000, 99_999_999));
      const set = await t.request({
        method: 'POST',
        url: '/api3/user/accessCode',
        token: portal.admin,
        payload: { userId: portal.memberId, code },
      });
      expect(set.statusCode).toBe(200);
      await t.app.deviceLink.flushScheduledSyncs();
    }
    const sync = await syncOf(t, portal, lock.deviceId);
    expect(sync.desiredVersion).toBe(first.version + 3);
    expect(sync.sentVersion).toBe(first.version + 3);

    // A change that does not touch this lock's set publishes nothing new for it.
    await t.request({
      method: 'POST',
      url: '/api3/portal/group',
      token: portal.admin,
      payload: { name: 'Idle' },
    });
    await t.app.deviceLink.flushScheduledSyncs();
    expect((await syncOf(t, portal, lock.deviceId)).desiredVersion).toBe(first.version + 3);

    client = await connectLock(t, lock);
    await client.subscribeAll();
    const latest = await waitFor(() => client.latestCredentials(), 'the retained set');
    expect(latest.version).toBe(first.version + 3);
    expect(latest.entries.filter((e) => e.kind === 'code')).toHaveLength(1);
    expect(latest.entries.some((e) => e.kind === 'code' && e.secret === code)).toBe(true);
  });

  it('republishes the stored set to a lock that reports an older version', async () => {
    const lock = await addLock(t, portal);
    const client = await connectLock(t, lock);
    await client.subscribeAll();
    await client.reportStatus();
    const first = await waitFor(() => client.latestCredentials(), 'the first set');
    const count = client.messages('credentials').length;
    await client.reportStatus({ credentialsVersion: 0 });
    await waitFor(() => client.messages('credentials').length > count || undefined, 'the set again');
    expect(client.latestCredentials()).toEqual(first);
  });

  it('shows a credentials/ack with a rejected entry in device/{id}/sync', async () => {
    const lock = await addLock(t, portal);
    const client = await connectLock(t, lock);
    await client.subscribeAll();
    await client.reportStatus();
    const set = await waitFor(() => client.latestCredentials(), 'a set');
    const remote = `remote:${portal.memberId}`;
    const before = await syncOf(t, portal, lock.deviceId);
    expect(before.credentials.find((c) => c.credentialId === remote)?.state).toBe('sent');

    await client.publish('credentials/ack', {
      version: set.version,
      rejected: [{ credentialId: remote, reason: 'unsupported_kind' }],
    });
    const sync = await waitFor(async () => {
      const s = await syncOf(t, portal, lock.deviceId);
      return s.confirmedVersion === set.version ? s : undefined;
    }, 'the ack');
    expect(sync).toMatchObject({
      desiredVersion: set.version,
      confirmedVersion: set.version,
      inSync: true,
      online: true,
      rejected: [{ credentialId: remote, version: set.version, reason: 'unsupported_kind' }],
    });
    expect(sync.confirmedAt).not.toBeNull();
    expect(sync.credentials.find((c) => c.credentialId === remote)).toMatchObject({
      kind: 'remote',
      holder: 'Test',
      state: 'rejected',
      reason: 'unsupported_kind',
    });
  });

  it('lists every lock in the sync center: never connected, pending until acked, failing, in sync', async () => {
    const own = await makePortal(t);
    const quiet = await addLock(t, own);
    const lock = await addLock(t, own);
    const refusing = await addLock(t, own);
    const center = async (query = '') => {
      const response = await t.request({ method: 'GET', url: `/api3/portal/sync${query}`, token: own.admin });
      expect(response.statusCode).toBe(200);
      return response.json<{
        items: { _id: string; state: string; pendingCount: number }[];
        total: number;
      }>();
    };
    const stateOf = async (deviceId: string) => (await center()).items.find((i) => i._id === deviceId);

    const client = await connectLock(t, lock);
    await client.subscribeAll();
    await client.reportStatus();
    const set = await waitFor(() => client.latestCredentials(), 'a set');
    await waitFor(
      async () => ((await stateOf(lock.deviceId))?.state === 'pending' ? true : undefined),
      'pending',
    );
    expect((await stateOf(lock.deviceId))!.pendingCount).toBeGreaterThan(0);
    await client.publish('credentials/ack', { version: set.version, rejected: [] });
    await waitFor(
      async () => ((await stateOf(lock.deviceId))?.state === 'in_sync' ? true : undefined),
      'in sync',
    );

    const other = await connectLock(t, refusing);
    await other.subscribeAll();
    await other.reportStatus();
    const otherSet = await waitFor(() => other.latestCredentials(), 'a set');
    await other.publish('credentials/ack', {
      version: otherSet.version,
      rejected: [{ credentialId: otherSet.entries[0]!.credentialId, reason: 'storage_full' }],
    });
    await waitFor(
      async () => ((await stateOf(refusing.deviceId))?.state === 'failing' ? true : undefined),
      'failing',
    );
    expect((await stateOf(quiet.deviceId))!.state).toBe('never_connected');

    expect((await center('?filterBy=state&filterValue=failing')).items.map((i) => i._id)).toEqual([
      refusing.deviceId,
    ]);
    expect((await center('?filterBy=state&filterValue=never_connected')).total).toBe(1);
    expect((await center('?limit=1&sortBy=pending&descending=true')).items).toHaveLength(1);
    // One person's credentials across their locks, for them and for admins.
    const theirs = await t.request({
      method: 'GET',
      url: `/api3/user/${own.memberId}/sync`,
      token: own.memberToken,
      portal: own.portalId,
    });
    expect(theirs.statusCode).toBe(200);
    const byLock = new Map(
      theirs
        .json<{ locks: { _id: string; credentials: { kind: string; state: string; userId: string }[] }[] }>()
        .locks.map((l) => [l._id, l.credentials]),
    );
    expect(byLock.get(lock.deviceId)).toEqual([
      expect.objectContaining({ kind: 'remote', userId: own.memberId, state: 'confirmed' }),
    ]);
    expect(byLock.has(quiet.deviceId)).toBe(true);
    const notTheirs = await t.request({
      method: 'GET',
      url: `/api3/user/${portal.memberId}/sync`,
      token: own.memberToken,
      portal: own.portalId,
    });
    expect(notTheirs.statusCode).toBe(403);

    const bad = await t.request({
      method: 'GET',
      url: '/api3/portal/sync?filterBy=state&filterValue=happy',
      token: own.admin,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/must be one of/);
  });

  it('sends a remote unlock and records the lock’s answer', async () => {
    const lock = await addLock(t, portal);
    const client = await connectOnline(t, portal, lock);
    const sent = await t.request({
      method: 'POST',
      url: `/api3/device/${lock.deviceId}/command`,
      token: portal.admin,
      payload: { action: 'unlock' },
    });
    expect(sent.statusCode).toBe(202);
    expect(sent.json()).toMatchObject({ action: 'unlock', status: 'pending' });
    const command = await waitFor(() => client.messages<DeviceCommand>('commands')[0], 'the command');
    expect(command).toMatchObject({ commandId: sent.json().commandId, action: 'unlock' });
    expect(Date.parse(command.expiresAt)).toBeGreaterThan(Date.now());

    await client.publish('commands/ack', { commandId: command.commandId, ok: true });
    const url = `/api3/device/${lock.deviceId}/command/${command.commandId}`;
    const answered = await waitFor(async () => {
      const r = (await t.request({ method: 'GET', url, token: portal.admin })).json();
      return r.status === 'ok' ? r : undefined;
    }, 'the answer');
    expect(answered.answeredAt).not.toBeNull();
    // The lock's event names the command, so the history names who sent it.
    await client.publish(
      'events',
      lockEvent({ type: 'unlock', method: 'remote', commandId: command.commandId }),
    );
    const logs = await waitFor(async () => {
      const r = (
        await t.request({
          method: 'GET',
          url: `/api3/device/${lock.deviceId}/events`,
          token: portal.admin,
        })
      ).json();
      // The page, not the count: on PostgreSQL they are read on two connections, and the event
      // may land between the two reads.
      return r.items.length > 0 ? r : undefined;
    }, 'the event');
    expect(logs.items[0].user).not.toBeNull();

    const failing = await t.request({
      method: 'POST',
      url: `/api3/device/${lock.deviceId}/command`,
      token: portal.admin,
      payload: { action: 'lock' },
    });
    await client.publish('commands/ack', { commandId: failing.json().commandId, ok: false, error: 'jammed' });
    const failed = await waitFor(async () => {
      const r = (
        await t.request({
          method: 'GET',
          url: `/api3/device/${lock.deviceId}/command/${failing.json().commandId}`,
          token: portal.admin,
        })
      ).json();
      return r.status === 'failed' ? r : undefined;
    }, 'the failure');
    expect(failed.error).toBe('jammed');
  });

  it('lets a basic user open a lock from the app only while the lock itself would let them in', async () => {
    const lock = await addLock(t, portal);
    const client = await connectOnline(t, portal, lock);
    const asMember = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.request({
        method,
        url: `/api3/${url}`,
        token: portal.memberToken,
        portal: portal.portalId,
        ...(payload && { payload }),
      });

    const sent = await asMember('POST', `device/${lock.deviceId}/command`, { action: 'unlock' });
    expect(sent.statusCode).toBe(202);
    const command = await waitFor(() => client.messages<DeviceCommand>('commands')[0], 'the command');
    expect(command).toMatchObject({ commandId: sent.json().commandId, userId: portal.memberId });
    expect((await asMember('GET', `device/${lock.deviceId}/command/${command.commandId}`)).statusCode).toBe(
      200,
    );

    // An admin's command is not theirs to follow.
    const adminCommand = await t.request({
      method: 'POST',
      url: `/api3/device/${lock.deviceId}/command`,
      token: portal.admin,
      payload: { action: 'lock' },
    });
    const theirs = await asMember('GET', `device/${lock.deviceId}/command/${adminCommand.json().commandId}`);
    expect(theirs.statusCode).toBe(404);

    // Outside their schedule the portal refuses, as the lock would.
    const never = {
      windows: [{ days: [0], start: '00:00', end: '00:01' }],
      endDate: '2000-01-02',
      startDate: '2000-01-01',
    };
    const schedule = await t.request({
      method: 'POST',
      url: `/api3/portal/device/${lock.deviceId}/schedule/${portal.memberId}`,
      token: portal.admin,
      payload: { schedule: never },
    });
    expect(schedule.statusCode).toBe(200);
    const refused = await asMember('POST', `device/${lock.deviceId}/command`, { action: 'unlock' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(/expired|at this time/);
    // A lock they have no access to at all.
    const other = await addLock(t, portal, false);
    expect(
      (await asMember('POST', `device/${other.deviceId}/command`, { action: 'unlock' })).statusCode,
    ).toBe(403);
  });

  it('refuses at once a command to a lock that is not connected, storing and sending nothing', async () => {
    const commandsOf = async (deviceId: string) =>
      (await t.app.db.selectFrom('device_commands').select('id').where('device_id', '=', deviceId).execute())
        .length;
    const send = (deviceId: string, token = portal.admin, action: 'unlock' | 'lock' = 'unlock') =>
      t.request({
        method: 'POST',
        url: `/api3/device/${deviceId}/command`,
        token,
        portal: portal.portalId,
        payload: { action },
      });

    // Never connected: refused with the reason, for an admin and for a basic user who may open it.
    const fresh = await addLock(t, portal);
    const started = Date.now();
    const never = await send(fresh.deviceId);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(never.statusCode).toBe(409);
    expect(never.json().error).toMatchObject({
      code: LOCK_OFFLINE,
      message: expect.stringMatching(/^Door .{4} has never connected/),
    });
    const asMember = await send(fresh.deviceId, portal.memberToken);
    expect(asMember.statusCode).toBe(409);
    expect(asMember.json().error.code).toBe(LOCK_OFFLINE);
    expect(await commandsOf(fresh.deviceId)).toBe(0);

    // Connected, then gone (its last will): refused, saying since when.
    const lock = await addLock(t, portal);
    const client = await connectOnline(t, portal, lock);
    client.client.stream.destroy();
    await waitFor(async () => (await deviceOf(t, portal, lock.deviceId)).online === false, 'the last will');
    const gone = await send(lock.deviceId, portal.admin, 'lock');
    expect(gone.statusCode).toBe(409);
    expect(gone.json().error).toMatchObject({
      code: LOCK_OFFLINE,
      message: expect.stringMatching(/is offline \(last seen \d{4}-\d\d-\d\d \d\d:\d\d UTC\)/),
    });
    expect(await commandsOf(lock.deviceId)).toBe(0);
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('entity_id', 'in', [lock.deviceId, fresh.deviceId])
      .where('action', 'like', 'device.command.%')
      .execute();
    expect(audit).toEqual([]);

    // Back online: it works again.
    const back = await connectOnline(t, portal, lock);
    const sent = await send(lock.deviceId);
    expect(sent.statusCode).toBe(202);
    await waitFor(() => back.messages<DeviceCommand>('commands')[0], 'the command');

    // Who may not see or open the lock learns nothing of its connection.
    const other = await makePortal(t);
    const theirs = await t.request({
      method: 'POST',
      url: `/api3/device/${fresh.deviceId}/command`,
      token: other.admin,
      payload: { action: 'unlock' },
    });
    expect(theirs.statusCode).toBe(404);
    const noAccess = await addLock(t, portal, false);
    expect((await send(noAccess.deviceId, portal.memberToken)).statusCode).toBe(403);
  });

  it("refuses an admin's remote unlock during a lockout that keeps admins out, on every door", async () => {
    const lock = await addLock(t, portal);
    const client = await connectOnline(t, portal, lock);
    const commandsOf = async () =>
      (
        await t.app.db
          .selectFrom('device_commands')
          .select('action')
          .where('device_id', '=', lock.deviceId)
          .execute()
      ).map((c) => c.action);
    const send = (action: 'unlock' | 'lock') =>
      t.request({
        method: 'POST',
        url: `/api3/device/${lock.deviceId}/command`,
        token: portal.admin,
        payload: { action },
      });
    // The same command through the `device` collection (features/collections).
    const unlockThroughCollection = () =>
      t.request({
        method: 'POST',
        url: `/api3/device/unlock/${lock.deviceId}`,
        token: portal.admin,
        payload: {},
      });
    const lockout = (exemptAdmins: boolean, from: Date) =>
      t.request({
        method: 'POST',
        url: '/api3/portal/lockout',
        token: portal.admin,
        payload: {
          name: exemptAdmins ? 'Audit, admins through' : 'Painting',
          from: from.toISOString(),
          until: new Date(Date.now() + 3_600_000).toISOString(),
          exemptAdmins,
          deviceIds: [lock.deviceId],
        },
      });

    // One that lets admins through: their unlock goes.
    const exempt = await lockout(true, new Date(Date.now() - 60_000));
    expect(exempt.statusCode, exempt.body).toBe(201);
    expect((await send('unlock')).statusCode).toBe(202);
    // One starting in an hour: not in effect yet.
    expect((await lockout(false, new Date(Date.now() + 1_800_000))).statusCode).toBe(201);
    expect((await send('unlock')).statusCode).toBe(202);
    expect(await commandsOf()).toEqual(['unlock', 'unlock']);

    // In effect and keeping admins out: refused at once with the reason, nothing stored or sent,
    // through the command route and through the collection's unlock alike.
    expect((await lockout(false, new Date(Date.now() - 60_000))).statusCode).toBe(201);
    for (const refused of [await send('unlock'), await unlockThroughCollection()]) {
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().error).toMatchObject({
        code: LOCKOUT_IN_EFFECT,
        message: expect.stringMatching(
          /^A lockout that keeps admins out is in effect at this lock until \w{3} \d+, \d{4}, \d\d:\d\d \S+: end it/,
        ),
      });
    }
    expect(await commandsOf()).toEqual(['unlock', 'unlock']);
    // Locking it stays possible.
    expect((await send('lock')).statusCode).toBe(202);
    await waitFor(() => client.messages<DeviceCommand>('commands')[2], 'the lock command');
    expect(client.messages<DeviceCommand>('commands').map((c) => c.action)).toEqual([
      'unlock',
      'unlock',
      'lock',
    ]);
  });

  it('disconnects a deleted lock and refuses it afterwards', async () => {
    const lock = await addLock(t, portal);
    const client = await connectLock(t, lock);
    const closed = new Promise((resolve) => client.client.once('close', () => resolve(undefined)));
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api3/portal/device/${lock.deviceId}`,
      token: portal.admin,
    });
    expect(deleted.statusCode).toBe(204);
    await closed;
    await expect(TestLock.connect(t.app.deviceLink.transport.url, lock)).rejects.toThrow(
      /Bad username or password/i,
    );
  });
});

describe('embedded broker port', () => {
  const occupy = (port: number) =>
    new Promise<net.Server | null>((resolve, reject) => {
      const server = net.createServer();
      server.once('error', (error: NodeJS.ErrnoException) =>
        error.code === 'EADDRINUSE' ? resolve(null) : reject(error),
      );
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
  const release = (server: net.Server | null) =>
    new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

  it('stops start-up when an explicitly chosen MQTT_PORT is taken', async () => {
    const blocker = (await occupy(0))!;
    const { port } = blocker.address() as net.AddressInfo;
    await expect(TestApp.start({ MQTT_PORT: String(port) })).rejects.toThrow(
      new RegExp(`MQTT_PORT ${port} is taken`),
    );
    await release(blocker);
  });

  it('takes a free port when the default 1883 is taken', async () => {
    // This machine's Mosquitto usually holds 1883 already; if not, the test holds it.
    const blocker = await occupy(1883);
    const t = await TestApp.start({ MQTT_PORT: '' });
    try {
      expect(new URL(t.app.deviceLink.transport.url).port).not.toBe('1883');
    } finally {
      await t.close();
      await release(blocker);
    }
  });
});

describe('device link timeouts', () => {
  let t: TestApp;
  let portal: Portal;

  beforeAll(async () => {
    t = await TestApp.start({ MQTT_HEARTBEAT_S: '1', MQTT_COMMAND_TTL_S: '1' });
    portal = await makePortal(t);
  });
  afterAll(() => t.close());

  it('marks a lock offline when its status stops for MQTT_HEARTBEAT_S', async () => {
    const lock = await addLock(t, portal, false);
    const client = await connectLock(t, lock);
    await client.reportStatus();
    await waitFor(async () => (await deviceOf(t, portal, lock.deviceId)).online === true, 'online');
    // Still connected, but silent: the heartbeat timeout decides.
    await waitFor(async () => (await deviceOf(t, portal, lock.deviceId)).online === false, 'offline', 4000);
    expect(client.client.connected).toBe(true);
  });

  it('answers expired for a command nobody answered in time, and keeps a late lock’s own expiry', async () => {
    const lock = await addLock(t, portal, false);
    const client = await connectOnline(t, portal, lock);
    // Heartbeats keep it online (MQTT_HEARTBEAT_S is 1 here): it is connected, it just never answers.
    const heartbeat = setInterval(() => void client.reportStatus(), 250);
    onTestFinished(() => clearInterval(heartbeat));
    const send = () =>
      t.request({
        method: 'POST',
        url: `/api3/device/${lock.deviceId}/command`,
        token: portal.admin,
        payload: { action: 'unlock' },
      });
    const get = (id: string) =>
      t.request({ method: 'GET', url: `/api3/device/${lock.deviceId}/command/${id}`, token: portal.admin });

    const unanswered = (await send()).json();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await get(unanswered.commandId)).json()).toMatchObject({ status: 'expired', answeredAt: null });

    const refused = (await send()).json();
    await client.publish('commands/ack', { commandId: refused.commandId, ok: false, error: 'expired' });
    await waitFor(
      async () => (await get(refused.commandId)).json().answeredAt !== null || undefined,
      'answer',
    );
    expect((await get(refused.commandId)).json()).toMatchObject({ status: 'expired', error: 'expired' });
  });
});

describe('a lock made of mosquitto_pub and mosquitto_sub', () => {
  const haveClients = fs.existsSync('/usr/bin/mosquitto_pub') && fs.existsSync('/usr/bin/mosquitto_sub');
  let t: TestApp;
  let portal: Portal;

  beforeAll(async () => {
    if (!haveClients) {
      console.warn(
        'skipping: mosquitto_pub/mosquitto_sub not installed (apt-get install -y mosquitto-clients)',
      );
      return;
    }
    t = await TestApp.start();
    portal = await makePortal(t);
  });
  afterAll(() => t?.close());

  it.skipIf(!haveClients)(
    'connects with device credentials, receives credentials and reports an event',
    async () => {
      const lock = await addLock(t, portal);
      const { port, hostname } = new URL(t.app.deviceLink.transport.url);
      // The client id is the device id on every connection (the broker refuses any other).
      const auth = [
        ...['-h', hostname, '-p', port, '-q', '1'],
        ...['-i', lock.deviceId, '-u', lock.deviceId, '-P', lock.secret],
      ];
      const topic = (name: Parameters<typeof deviceTopic>[1]) => deviceTopic(lock.deviceId, name);

      const status = {
        online: true,
        battery: 90,
        lockState: 'locked',
        firmware: 'sh-1',
        credentialsVersion: 0,
        ts: new Date().toISOString(),
      };
      await run('mosquitto_pub', [...auth, '-r', '-t', topic('status'), '-m', JSON.stringify(status)]);
      await t.app.deviceLink.flushScheduledSyncs();
      const sent = await waitFor(
        async () => (await syncOf(t, portal, lock.deviceId)).sentVersion ?? undefined,
        'a set',
      );

      // The retained set arrives as soon as the subscription is made.
      const credentials = await run('mosquitto_sub', [
        ...auth,
        '-t',
        topic('credentials'),
        '-C',
        '1',
        '-W',
        '10',
      ]);
      const set = JSON.parse(credentials.stdout) as CredentialSet;
      // Adding the lock and giving the member access were two changes, each its own version.
      expect(set).toMatchObject({ deviceId: lock.deviceId, version: sent });
      expect(set.entries.map((e) => e.credentialId)).toContain(`remote:${portal.memberId}`);

      // One client id per lock, so publishing and listening take turns on a persistent session
      // (-c): subscribe to the acks and leave, report the event, come back for the ack waiting there.
      await run('mosquitto_sub', [...auth, '-c', '-t', topic('events/ack'), '-E']);
      const event = lockEvent({ method: 'code' });
      // As a lock does: send again until the ack comes (one may reach the publishing connection).
      let ackText = '';
      for (let attempt = 0; attempt < 10 && !ackText; attempt++) {
        await run('mosquitto_pub', [...auth, '-c', '-t', topic('events'), '-m', JSON.stringify(event)]);
        ackText = await run('mosquitto_sub', [...auth, '-c', '-t', topic('events/ack'), '-C', '1', '-W', '2'])
          .then((result) => result.stdout)
          .catch(() => '');
      }
      expect(JSON.parse(ackText)).toEqual({ eventIds: [event.eventId] });
      const rows = await t.app.db
        .selectFrom('device_events')
        .select('event_id')
        .where('device_id', '=', lock.deviceId)
        .execute();
      expect(rows).toEqual([{ event_id: event.eventId }]);
      expect((await deviceOf(t, portal, lock.deviceId)).battery).toBe(90);
    },
  );
});

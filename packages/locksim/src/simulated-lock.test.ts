import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deviceTopic, type LockEvent } from '@latchkey/shared';
import { SimulatedLock, type SimulatedLockOptions } from './simulated-lock';
import { credentialSet, entry, FakeServer, startBroker, type TestBroker } from './test-support';

const LOCK = 'lock-front';
const SECRET = 'front-door-secret';
const topic = (name: Parameters<typeof deviceTopic>[1]) => deviceTopic(LOCK, name);

// 2026-03-02 is a Monday; Berlin is UTC+1 in March. The window is Monday 08:00–17:00 local.
const MONDAY_11_BERLIN = new Date('2026-03-02T10:00:00Z');
const MONDAY_19_BERLIN = new Date('2026-03-02T18:00:00Z');
const officeHours = { windows: [{ days: [1], start: '08:00', end: '17:00' }] };

const officeCode = entry({ credentialId: 'cred-code', kind: 'code', secret: '1234', schedule: officeHours });
const badge = entry({ credentialId: 'cred-card', kind: 'rfid', secret: '04A1B2C3' });
const finger = entry({ credentialId: 'cred-finger', kind: 'fingerprint', secret: 'tmpl-7' });
const letterCode = entry({ credentialId: 'cred-letters', kind: 'code', secret: 'abcd' });
const remote = entry({ credentialId: 'cred-remote', kind: 'remote', secret: 'user-1' });

let broker: TestBroker;
let server: FakeServer;
let clock: Date;
const locks: SimulatedLock[] = [];

function makeLock(options: Partial<SimulatedLockOptions> = {}): SimulatedLock {
  const lock = new SimulatedLock({
    url: broker.url,
    deviceId: LOCK,
    secret: SECRET,
    // A keypad + card lock: fingerprint entries must come back rejected.
    model: { supportedKinds: ['code', 'rfid', 'remote'], capacity: 100 },
    heartbeatSeconds: 0,
    reconnectPeriodMs: 50,
    now: () => clock,
    ...options,
  });
  locks.push(lock);
  return lock;
}

/** Starts a lock and waits until it has applied the given credential version. */
async function startWithCredentials(lock: SimulatedLock, version: number) {
  const applied = waitForVersion(lock, version);
  await lock.start();
  await applied;
}

function waitForVersion(lock: SimulatedLock, version: number): Promise<void> {
  return new Promise((resolve) => {
    const listener = (applied: { version: number }) => {
      if (applied.version !== version) return;
      lock.off('credentialsApplied', listener);
      resolve();
    };
    lock.on('credentialsApplied', listener);
  });
}

const isEvent = (eventId: string) => (body: unknown) =>
  (Array.isArray(body) ? body : [body]).some((event: LockEvent) => event.eventId === eventId);

beforeEach(async () => {
  clock = MONDAY_11_BERLIN;
  broker = await startBroker({ [LOCK]: SECRET });
  server = await FakeServer.connect(broker.url);
  await server.publish(
    topic('credentials'),
    credentialSet(LOCK, 1, [officeCode, badge, finger, letterCode, remote]),
    {
      retain: true,
    },
  );
});

afterEach(async () => {
  for (const lock of locks.splice(0)) await lock.goOffline('drop');
  await server.close();
  await broker.close();
});

describe('credential sets', () => {
  it('applies the retained set, acknowledges its version and rejects what the model cannot hold', async () => {
    const lock = makeLock();
    await startWithCredentials(lock, 1);

    const ack = await server.waitFor(topic('credentials/ack'));
    expect(ack.body).toEqual({
      version: 1,
      rejected: [
        { credentialId: 'cred-finger', reason: 'unsupported_kind' },
        { credentialId: 'cred-letters', reason: 'invalid_secret' },
      ],
    });
    expect(lock.credentialSet?.entries.map((kept) => kept.credentialId)).toEqual([
      'cred-code',
      'cred-card',
      'cred-remote',
    ]);
    const status = await server.waitFor(
      topic('status'),
      (body) => (body as { credentialsVersion?: number }).credentialsVersion === 1,
    );
    expect(status.body).toMatchObject({
      online: true,
      battery: 100,
      lockState: 'locked',
      firmware: 'locksim-0.1.0',
    });
  });

  it('rejects entries beyond its storage as storage_full', async () => {
    const lock = makeLock({ model: { supportedKinds: ['code', 'rfid', 'remote'], capacity: 1 } });
    await startWithCredentials(lock, 1);
    const ack = await server.waitFor(topic('credentials/ack'));
    expect((ack.body as { rejected: unknown[] }).rejected).toContainEqual({
      credentialId: 'cred-card',
      reason: 'storage_full',
    });
  });

  it('gets only the latest retained set after being offline during three changes', async () => {
    const lock = makeLock();
    await startWithCredentials(lock, 1);
    await lock.goOffline('drop');

    for (const version of [2, 3, 4]) {
      const entries = [
        entry({
          credentialId: `cred-v${version}`,
          kind: 'code',
          secret: `${version}${version}${version}${version}`,
        }),
      ];
      await server.publish(topic('credentials'), credentialSet(LOCK, version, entries), { retain: true });
    }
    const appliedVersions: number[] = [];
    lock.on('credentialsApplied', ({ version }) => appliedVersions.push(version));
    const before = server.received.length;
    const applied = waitForVersion(lock, 4);
    await lock.comeBack();
    await applied;

    expect(appliedVersions).toEqual([4]);
    expect(await server.waitFor(topic('credentials/ack'), () => true, { after: before })).toMatchObject({
      body: { version: 4, rejected: [] },
    });
    expect(lock.enterCode('4444').decision).toMatchObject({ granted: true, credentialId: 'cred-v4' });
    expect(lock.enterCode('1234').decision).toMatchObject({ granted: false, reason: 'unknown_credential' });
  });

  it('ignores invalid payloads and a set meant for another lock, and keeps working', async () => {
    const lock = makeLock();
    await startWithCredentials(lock, 1);
    const ignored: string[] = [];
    lock.on('ignored', ({ reason }) => ignored.push(reason));

    await server.publish(topic('credentials'), 'not json');
    await server.publish(topic('credentials'), { version: 'two' });
    await server.publish(topic('credentials'), credentialSet('someone-else', 9, []));
    await server.publish(topic('events/ack'), { eventIds: [] });
    await server.publish(topic('commands'), { commandId: 'c1', action: 'explode', expiresAt: 'soon' });
    // QoS 1 from one publisher arrives in order: once this set is applied, the bad ones were handled.
    const applied = waitForVersion(lock, 2);
    await server.publish(topic('credentials'), credentialSet(LOCK, 2, [officeCode]));
    await applied;

    expect(ignored).toHaveLength(5);
    expect(ignored[0]).toBe('payload is not JSON');
    expect(ignored[2]).toBe('credential set is for someone-else');
    expect(lock.enterCode('1234').decision.granted).toBe(true);
  });
});

describe('offline access decisions', () => {
  it('opens with a code inside its schedule and refuses it outside, reporting both', async () => {
    const lock = makeLock();
    await startWithCredentials(lock, 1);

    const inside = lock.enterCode('1234');
    expect(inside.decision).toMatchObject({ granted: true, credentialId: 'cred-code' });
    expect(lock.lockState).toBe('unlocked');
    const opened = await server.waitFor(topic('events'), isEvent(inside.event.eventId));
    expect(opened.body).toMatchObject({
      type: 'unlock',
      method: 'code',
      credentialId: 'cred-code',
      reason: null,
    });

    clock = MONDAY_19_BERLIN;
    const outside = lock.enterCode('1234');
    expect(outside.decision).toMatchObject({ granted: false, reason: 'outside_schedule' });
    const refused = await server.waitFor(topic('events'), isEvent(outside.event.eventId));
    expect(refused.body).toMatchObject({
      type: 'denied',
      method: 'code',
      credentialId: 'cred-code',
      reason: 'outside_schedule',
      ts: MONDAY_19_BERLIN.toISOString(),
    });
  });

  it('maps the other actions onto protocol events', async () => {
    const lock = makeLock();
    await startWithCredentials(lock, 1);

    expect(lock.tapCard('04A1B2C3').event).toMatchObject({
      type: 'unlock',
      method: 'rfid',
      credentialId: 'cred-card',
    });
    expect(lock.tapCard('FFFFFFFF').event).toMatchObject({
      type: 'denied',
      method: 'rfid',
      reason: 'unknown_credential',
    });
    expect(lock.presentFingerprint('tmpl-7').event).toMatchObject({
      type: 'denied',
      reason: 'unknown_credential',
    });
    expect(lock.turnManually()).toMatchObject({ type: 'lock', method: 'manual' });
    expect(lock.turnManually()).toMatchObject({ type: 'unlock', method: 'manual' });
    expect(lock.doorAjar()).toMatchObject({ type: 'door_ajar', method: null });
    expect(lock.doorClosed()).toMatchObject({ type: 'door_closed' });
    expect(lock.tamper()).toMatchObject({ type: 'tamper' });
    expect(lock.drainBattery(50)).toBeNull();
    expect(lock.drainBattery(35)).toMatchObject({ type: 'battery_low' });
    expect(lock.drainBattery(5)).toBeNull();
    expect(lock.battery).toBe(10);
    await server.waitFor(topic('status'), (body) => (body as { battery?: number }).battery === 10);
  });
});

describe('event outbox', () => {
  it('buffers events while offline, resends them on reconnect and drops them once acknowledged', async () => {
    const lock = makeLock();
    await startWithCredentials(lock, 1);
    await lock.goOffline('drop');

    const offlineEvents = [lock.enterCode('1234').event, lock.enterCode('9999').event, lock.tamper()];
    expect(lock.pendingEvents().map((event) => event.eventId)).toEqual(
      offlineEvents.map((event) => event.eventId),
    );

    const before = server.received.length;
    await lock.comeBack();
    const batch = await server.waitFor(topic('events'), (body) => Array.isArray(body), { after: before });
    expect((batch.body as LockEvent[]).map((event) => event.eventId)).toEqual(
      offlineEvents.map((event) => event.eventId),
    );

    const acked = once(lock, 'eventsAcked');
    await server.publish(topic('events/ack'), { eventIds: offlineEvents.map((event) => event.eventId) });
    expect(await acked).toEqual([
      { deviceId: LOCK, dropped: offlineEvents.map((event) => event.eventId), pending: 0 },
    ]);

    // The server may ack twice (it acks every copy it receives); the second ack changes nothing.
    const ackedAgain = once(lock, 'eventsAcked');
    await server.publish(topic('events/ack'), { eventIds: [offlineEvents[0]!.eventId, 'never-sent'] });
    expect(await ackedAgain).toEqual([{ deviceId: LOCK, dropped: [], pending: 0 }]);

    // Nothing is resent after the next reconnect.
    await lock.goOffline('drop');
    const afterAck = server.received.length;
    await lock.comeBack();
    await server.waitFor(topic('status'), (body) => (body as { online?: boolean }).online === true, {
      after: afterAck,
    });
    expect(server.received.slice(afterAck).filter((message) => message.topic === topic('events'))).toEqual(
      [],
    );
  });

  it('rides out a broker restart: reconnects by itself and resends what the server missed', async () => {
    const lock = makeLock();
    await startWithCredentials(lock, 1);
    const port = Number(new URL(broker.url).port);
    const lost = once(lock, 'disconnected');
    await server.close();
    await broker.close();
    await lost;
    const duringOutage = lock.tamper();
    expect(lock.online).toBe(false);

    broker = await startBroker({ [LOCK]: SECRET }, port);
    server = await FakeServer.connect(broker.url);
    const resent = await server.waitFor(topic('events'), isEvent(duringOutage.eventId));
    expect(resent.body).toEqual([duringOutage]);
    expect(lock.online).toBe(true);
  });

  it('keeps unacknowledged events and its credential set in a state file across a restart', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'locksim-'));
    try {
      const stateFile = join(directory, `${LOCK}.json`);
      const first = makeLock({ stateFile });
      await startWithCredentials(first, 1);
      await first.goOffline('drop');
      const kept = first.enterCode('1234').event;

      const second = makeLock({ stateFile });
      expect(second.pendingEvents()).toEqual([kept]);
      // Decides offline straight after the restart, before any broker contact.
      expect(second.enterCode('1234').decision).toMatchObject({ granted: true, credentialId: 'cred-code' });
      const before = server.received.length;
      await second.start();
      const batch = await server.waitFor(topic('events'), (body) => Array.isArray(body), { after: before });
      expect((batch.body as LockEvent[])[0]).toEqual(kept);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('remote commands', () => {
  const inFiveMinutes = () => new Date(clock.getTime() + 5 * 60_000).toISOString();

  it('refuses an expired command', async () => {
    const lock = makeLock();
    await startWithCredentials(lock, 1);
    const expiredAt = new Date(clock.getTime() - 1000).toISOString();
    await server.publish(topic('commands'), { commandId: 'cmd-old', action: 'unlock', expiresAt: expiredAt });

    const ack = await server.waitFor(topic('commands/ack'));
    expect(ack.body).toEqual({ commandId: 'cmd-old', ok: false, error: 'expired' });
    expect(lock.lockState).toBe('locked');
    expect(lock.pendingEvents()).toEqual([]);
  });

  it('unlocks and locks on command, naming the remote credential, and answers a redelivery once', async () => {
    const lock = makeLock();
    await startWithCredentials(lock, 1);
    const unlock = { commandId: 'cmd-1', action: 'unlock', expiresAt: inFiveMinutes(), userId: 'user-1' };
    await server.publish(topic('commands'), unlock);

    expect((await server.waitFor(topic('commands/ack'))).body).toEqual({ commandId: 'cmd-1', ok: true });
    const event = await server.waitFor(topic('events'), (body) => (body as LockEvent).method === 'remote');
    expect(event.body).toMatchObject({ type: 'unlock', method: 'remote', credentialId: 'cred-remote' });
    expect(lock.lockState).toBe('unlocked');

    const repeat = once(lock, 'command');
    await server.publish(topic('commands'), unlock);
    expect((await repeat)[0]).toMatchObject({ repeated: true, ack: { ok: true } });
    expect(lock.pendingEvents().filter((pending) => pending.method === 'remote')).toHaveLength(1);

    await server.publish(topic('commands'), {
      commandId: 'cmd-2',
      action: 'lock',
      expiresAt: inFiveMinutes(),
    });
    await server.waitFor(
      topic('commands/ack'),
      (body) => (body as { commandId: string }).commandId === 'cmd-2',
    );
    expect(lock.lockState).toBe('locked');
  });
});

describe('presence', () => {
  it('has the broker publish the last will online:false when the connection drops', async () => {
    const lock = makeLock();
    await startWithCredentials(lock, 1);
    const before = server.received.length;
    await lock.goOffline('drop');

    const will = await server.waitFor(
      topic('status'),
      (body) => (body as { online: boolean }).online === false,
      {
        after: before,
      },
    );
    expect(will.body).toEqual({ online: false });
  });

  it('says goodbye itself when leaving cleanly', async () => {
    const lock = makeLock();
    await startWithCredentials(lock, 1);
    const before = server.received.length;
    await lock.goOffline('clean');

    const goodbye = await server.waitFor(
      topic('status'),
      (body) => (body as { online: boolean }).online === false,
      {
        after: before,
      },
    );
    expect(goodbye.body).toEqual({ online: false, ts: MONDAY_11_BERLIN.toISOString() });
  });

  it('is refused with a wrong secret', async () => {
    const lock = makeLock({ secret: 'wrong', reconnectPeriodMs: 0 });
    await expect(lock.start()).rejects.toThrow(/Bad username or password/i);
  });
});

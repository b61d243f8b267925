import crypto from 'node:crypto';
import { deviceTopic, type DeviceEvent, type LockEvent } from '@latchkey/shared';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveClient, listen } from './live-client';
import { TestApp } from './test-app';
import { waitFor } from './net-helpers';

/**
 * Lock events under group commit (features/device-link/event-ingest.ts): many locks' events share
 * a transaction, yet each is stored once, acknowledged only once stored, shown once on the live
 * channel exactly as the logs show it, and attributed to whoever held the credential when stored.
 */

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

/** A real MQTT client as a lock: sends events, collects the event ids its acks name. */
class EventLock {
  readonly acked: string[] = [];
  readonly acks: string[][] = [];
  private constructor(
    readonly client: MqttClient,
    readonly deviceId: string,
  ) {
    client.on('message', (_topic, payload) => {
      const { eventIds } = JSON.parse(payload.toString()) as { eventIds: string[] };
      this.acks.push(eventIds);
      this.acked.push(...eventIds);
    });
  }

  static async connect(url: string, deviceId: string, secret: string) {
    const client = await mqtt.connectAsync(url, {
      clientId: deviceId,
      username: deviceId,
      password: secret,
      reconnectPeriod: 0,
    });
    await client.subscribeAsync(deviceTopic(deviceId, 'events/ack'), { qos: 1 });
    return new EventLock(client, deviceId);
  }

  send(events: LockEvent | LockEvent[]): Promise<unknown> {
    return this.client.publishAsync(deviceTopic(this.deviceId, 'events'), JSON.stringify(events), { qos: 1 });
  }
}

describe('lock events under group commit', () => {
  let t: TestApp;
  let liveUrl: string;
  let admin: { token: string; userId: string; portalId: string };
  const api = (
    method: 'GET' | 'POST' | 'DELETE' | 'PUT',
    url: string,
    payload?: object,
    token = admin.token,
  ) => t.request({ method, url: `/api3/${url}`, token, ...(payload && { payload }) });

  async function addLock(name = `Door ${crypto.randomUUID().slice(0, 6)}`) {
    const response = await api('POST', 'portal/device/new', { name, model: 'latchkey-sim', timeZone: 'UTC' });
    expect(response.statusCode).toBe(201);
    return { deviceId: response.json().device._id as string, secret: response.json().deviceSecret as string };
  }

  const storedRows = (deviceIds: string[]) =>
    t.app.db
      .selectFrom('device_events')
      .select(['device_id', 'event_id', 'user_id'])
      .where('device_id', 'in', deviceIds)
      .execute();

  /** A lock message exactly as the broker hands it over (its ack goes to the lock, if connected). */
  const fromLock = (deviceId: string, body: LockEvent | LockEvent[]) =>
    t.app.deviceLink.handle({ deviceId, topic: 'events', payload: Buffer.from(JSON.stringify(body)) });

  /** A lock's status report as the broker hands it over: the lock is online (commands need that). */
  const reportOnline = (deviceId: string) =>
    t.app.deviceLink.handle({
      deviceId,
      topic: 'status',
      payload: Buffer.from(
        JSON.stringify({
          online: true,
          battery: 90,
          lockState: 'locked',
          firmware: 't-1',
          credentialsVersion: 0,
          ts: new Date().toISOString(),
        }),
      ),
    });

  beforeAll(async () => {
    t = await TestApp.start();
    liveUrl = await listen(t);
    const owner = await t.signUp({ firstName: 'Ada', lastName: 'Admin' });
    admin = { token: owner.token, userId: owner.userId, portalId: owner.portalId };
  });
  afterAll(() => t.close());

  it('stores each event of many locks exactly once, resent within a message, a batch or later, and acknowledges all', async () => {
    const live = await LiveClient.open(liveUrl);
    await live.join(admin.token, admin.portalId);
    const locks = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const { deviceId, secret } = await addLock();
        return EventLock.connect(t.app.deviceLink.transport.url, deviceId, secret);
      }),
    );
    const sent = new Map<string, LockEvent[]>(locks.map((lock) => [lock.deviceId, []]));
    const make = (lock: EventLock) => {
      const event = lockEvent({ method: 'manual', type: 'lock' });
      sent.get(lock.deviceId)!.push(event);
      return event;
    };

    // All locks at once: one message carrying the same event twice; singles sent back to back
    // (many locks' messages share a batch); some of them again straight away.
    await Promise.all(
      locks.map(async (lock) => {
        const first = make(lock);
        const singles = Array.from({ length: 8 }, () => make(lock));
        await Promise.all([
          lock.send([first, first]),
          ...singles.map((event) => lock.send(event)),
          ...singles.slice(0, 4).map((event) => lock.send(event)),
        ]);
      }),
    );
    for (const lock of locks) {
      const ids = sent.get(lock.deviceId)!.map((e) => e.eventId);
      await waitFor(() => ids.every((id) => lock.acked.includes(id)), 'every event to be acknowledged');
    }
    // Again, once stored: a lock that missed the ack resends in a later batch.
    await Promise.all(locks.map((lock) => lock.send(sent.get(lock.deviceId)!.slice(0, 3))));
    // And directly, several locks' messages in the very same batch (submitted in one tick), one
    // of them twice.
    const sameBatch = locks.slice(0, 4).map((lock) => ({ lock, event: make(lock) }));
    await Promise.all([
      ...sameBatch.map(({ lock, event }) => fromLock(lock.deviceId, event)),
      fromLock(sameBatch[0]!.lock.deviceId, sameBatch[0]!.event),
    ]);
    for (const lock of locks) {
      const acksNeeded = 1 + 8 + 4 + 1 + (sameBatch.some((s) => s.lock === lock) ? 1 : 0);
      await waitFor(() => lock.acks.length >= acksNeeded + (lock === sameBatch[0]!.lock ? 1 : 0), 'the acks');
      // Every message is answered by one ack naming its events (a repeat too: it is stored).
      const first = sent.get(lock.deviceId)![0]!.eventId;
      expect(lock.acks).toContainEqual([first, first]);
      expect(new Set(lock.acked)).toEqual(new Set(sent.get(lock.deviceId)!.map((e) => e.eventId)));
    }

    const expected = [...sent].flatMap(([deviceId, events]) => events.map((e) => `${deviceId} ${e.eventId}`));
    const rows = await storedRows(locks.map((lock) => lock.deviceId));
    expect(rows.map((row) => `${row.device_id} ${row.event_id}`).sort()).toEqual([...expected].sort());

    // The live channel shows each stored event once: wait for all, then for a later marker.
    const shown = () =>
      live.messages.flatMap((m) =>
        m.type === 'device.event' ? [`${m.event.device._id} ${m.event.eventId}`] : [],
      );
    await waitFor(() => expected.every((key) => shown().includes(key)), 'every event on the live channel');
    const marker = lockEvent({ method: 'manual', type: 'lock' });
    await fromLock(locks[0]!.deviceId, marker);
    await live.waitFor((m) => m.type === 'device.event' && m.event.eventId === marker.eventId, 'the marker');
    expect(shown().sort()).toEqual([...expected, `${locks[0]!.deviceId} ${marker.eventId}`].sort());
    await Promise.all(locks.map((lock) => lock.client.endAsync(true)));
    live.close();
  });

  it('shows on the live channel exactly what the logs show, built from the inserted rows', async () => {
    const { deviceId } = await addLock('Front door');
    const card = await api('POST', 'portal/rfid', {
      uid: crypto.randomBytes(4).toString('hex'),
      userId: admin.userId,
    });
    expect(card.statusCode).toBeLessThan(300);
    const live = await LiveClient.open(liveUrl);
    await live.join(admin.token, admin.portalId);
    const events = [
      lockEvent({ credentialId: card.json()._id }),
      lockEvent({ type: 'denied', method: 'code', credentialId: null, reason: 'unknown_credential' }),
      lockEvent({ type: 'door_ajar', method: null, ts: '2026-11-20T08:00:00.123+01:00' }),
    ];
    await fromLock(deviceId, events);
    const logs = (await api('GET', `device/${deviceId}/events`)).json<{ items: DeviceEvent[] }>().items;
    for (const event of events) {
      const shown = await live.waitFor(
        (m) => m.type === 'device.event' && m.event.eventId === event.eventId,
        `event ${event.type}`,
      );
      expect(shown.type === 'device.event' && shown.event).toEqual(
        logs.find((e) => e.eventId === event.eventId),
      );
    }
    expect(logs.find((e) => e.eventId === events[0]!.eventId)!.user).toEqual({
      _id: admin.userId,
      name: 'Ada Admin',
    });
    live.close();
  });

  it('attributes each event to whoever holds the credential when it is stored: reassigned, revoked, foreign, remote, commanded', async () => {
    const { deviceId, secret } = await addLock();
    const lock = await EventLock.connect(t.app.deviceLink.transport.url, deviceId, secret);
    const alice = await t.signUp({ firstName: 'Alice' });
    const bob = await t.signUp({ firstName: 'Bob' });
    const outsider = await t.signUp({ firstName: 'Olga' });
    await t.addMember(admin.portalId, alice.userId, 'user');
    await t.addMember(admin.portalId, bob.userId, 'user');
    const uid = crypto.randomBytes(4).toString('hex');
    const card = (await api('POST', 'portal/rfid', { uid, userId: alice.userId })).json()._id as string;
    // The outsider's own portal has a card of theirs; its id means nothing at our lock.
    const theirCard = (
      await api(
        'POST',
        'portal/rfid',
        { uid: crypto.randomBytes(4).toString('hex'), userId: outsider.userId },
        outsider.token,
      )
    ).json()._id as string;

    const holderOf = async (event: LockEvent) => {
      await waitFor(() => lock.acked.includes(event.eventId), 'the ack');
      const [row] = await t.app.db
        .selectFrom('device_events')
        .select('user_id')
        .where('device_id', '=', deviceId)
        .where('event_id', '=', event.eventId)
        .execute();
      return row!.user_id;
    };
    const send = async (overrides: Partial<LockEvent>) => {
      const event = lockEvent(overrides);
      await lock.send(event);
      return holderOf(event);
    };

    expect(await send({ credentialId: card })).toBe(alice.userId);
    // Handed to Bob: from the next event on, Bob's; never Alice's again.
    const moved = await api('POST', `portal/rfid/${card}`, { uid, userId: bob.userId });
    expect(moved.statusCode).toBe(200);
    expect(await send({ credentialId: card })).toBe(bob.userId);
    // Revoked: a lock not yet told lets Bob in with it, and the event is Bob's, the last holder's.
    expect((await api('DELETE', `portal/rfid/${card}`)).statusCode).toBeLessThan(300);
    expect(await send({ credentialId: card })).toBe(bob.userId);
    // A card held by nobody: nobody's.
    const spare = (await api('POST', 'portal/rfid', { uid: crypto.randomBytes(4).toString('hex') })).json()
      ._id as string;
    expect(await send({ credentialId: spare })).toBeNull();
    // Another portal's credential, and the app entries of a non-member and of nobody.
    expect(await send({ credentialId: theirCard })).toBeNull();
    expect(await send({ method: 'remote', credentialId: `remote:${bob.userId}` })).toBe(bob.userId);
    expect(await send({ method: 'remote', credentialId: `remote:${outsider.userId}` })).toBeNull();
    expect(await send({ method: 'remote', credentialId: `remote:${crypto.randomUUID()}` })).toBeNull();

    // A remote unlock: the sender, who holds no credential at this lock.
    await reportOnline(deviceId);
    const command = await api('POST', `device/${deviceId}/command`, { action: 'unlock' });
    expect(command.statusCode).toBeLessThan(300);
    const commandId = command.json().commandId as string;
    expect(await send({ method: 'remote', credentialId: null, commandId })).toBe(admin.userId);
    // Another lock's command id says nothing here.
    const other = await addLock();
    await reportOnline(other.deviceId);
    const theirCommand = (await api('POST', `device/${other.deviceId}/command`, { action: 'unlock' })).json()
      .commandId as string;
    expect(await send({ method: 'remote', credentialId: null, commandId: theirCommand })).toBeNull();

    // All kinds in one batch, each still its own person.
    const alicesCard = (
      await api('POST', 'portal/rfid', { uid: crypto.randomBytes(4).toString('hex'), userId: alice.userId })
    ).json()._id as string;
    const batch = [
      lockEvent({ credentialId: alicesCard }),
      lockEvent({ method: 'remote', credentialId: `remote:${bob.userId}` }),
      lockEvent({ credentialId: theirCard }),
      lockEvent({ method: 'remote', credentialId: null, commandId }),
    ];
    await Promise.all(batch.map((event) => fromLock(deviceId, event)));
    expect(await Promise.all(batch.map(holderOf))).toEqual([alice.userId, bob.userId, null, admin.userId]);
    await lock.client.endAsync(true);
  });

  it('takes a burst of messages from one lock, more than the broker handles at once, each once', async () => {
    const { deviceId, secret } = await addLock();
    const lock = await EventLock.connect(t.app.deviceLink.transport.url, deviceId, secret);
    const events = Array.from({ length: 60 }, () => lockEvent({ method: 'manual', type: 'lock' }));
    await Promise.all(events.map((event) => lock.send(event)));
    await waitFor(() => lock.acks.length >= events.length, 'an ack for every message');
    expect(lock.acked.sort()).toEqual(events.map((e) => e.eventId).sort());
    expect((await storedRows([deviceId])).map((row) => row.event_id).sort()).toEqual(
      events.map((e) => e.eventId).sort(),
    );
    await lock.client.endAsync(true);
  });

  it('takes no events from a deleted lock, and does not acknowledge them', async () => {
    const { deviceId, secret } = await addLock();
    const lock = await EventLock.connect(t.app.deviceLink.transport.url, deviceId, secret);
    const before = lockEvent();
    await lock.send(before);
    await waitFor(() => lock.acked.includes(before.eventId), 'the ack');
    expect((await api('DELETE', `portal/device/${deviceId}`)).statusCode).toBe(204);
    // As if a message were still in flight from it (another server, a broker that has not cut it off).
    await fromLock(deviceId, lockEvent());
    expect((await storedRows([deviceId])).map((row) => row.event_id)).toEqual([before.eventId]);
    expect(lock.acked).toEqual([before.eventId]);
  });
});

import { deviceTopic } from '@latchkey/shared';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeenLocks } from '../src/features/device-link/seen-locks';
import { TestApp } from './test-app';
import { waitFor } from './net-helpers';

/**
 * Heartbeats at fleet scale: a status that changes nothing but the time is written in a batch with
 * the others of its second (seen-locks.ts), a status that changes something at once; either way the
 * lock stays online, and the sweep still finds a silent one.
 */

let t: TestApp;
let admin: Awaited<ReturnType<TestApp['signUp']>>;
const clients: MqttClient[] = [];

beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.signUp();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await t.close();
});

async function addLock() {
  const response = await t.request({
    method: 'POST',
    url: '/api3/portal/device/new',
    token: admin.token,
    payload: { name: 'Door', model: 'latchkey-sim', timeZone: 'UTC' },
  });
  expect(response.statusCode).toBe(201);
  const { device, deviceSecret } = response.json();
  const client = await mqtt.connectAsync(t.app.deviceLink.transport.url, {
    clientId: device._id,
    username: device._id,
    password: deviceSecret,
    protocolVersion: 4,
    reconnectPeriod: 0,
  });
  clients.push(client);
  const report = (battery: number) =>
    client.publishAsync(
      deviceTopic(device._id, 'status'),
      JSON.stringify({
        online: true,
        battery,
        lockState: 'locked',
        firmware: 'test-1.0',
        credentialsVersion: 0,
        ts: new Date().toISOString(),
      }),
      { qos: 1 },
    );
  return { deviceId: device._id as string, report };
}

async function deviceOf(deviceId: string) {
  const response = await t.request({
    method: 'GET',
    url: `/api3/portal/device/${deviceId}`,
    token: admin.token,
  });
  return response.json() as { online: boolean; battery: number | null; lastSeenAt: string | null };
}

describe('heartbeats', () => {
  it('keeps a lock seen through unchanged heartbeats and stores a change at once', async () => {
    const lock = await addLock();
    await lock.report(80);
    const first = await waitFor(async () => {
      const device = await deviceOf(lock.deviceId);
      return device.online && device.battery === 80 ? device : undefined;
    }, 'the first status');
    // The same status again: only the time is new, written with the next batch.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await lock.report(80);
    await waitFor(async () => {
      const device = await deviceOf(lock.deviceId);
      return device.lastSeenAt! > first.lastSeenAt! ? device : undefined;
    }, 'the heartbeat written');
    // A change is written as it comes.
    await lock.report(61);
    const changed = await waitFor(async () => {
      const device = await deviceOf(lock.deviceId);
      return device.battery === 61 ? device : undefined;
    }, 'the new battery level');
    expect(changed.online).toBe(true);
    // Silent for longer than MQTT_HEARTBEAT_S: the sweep marks it offline.
    const later = new Date(Date.parse(changed.lastSeenAt!) + (t.app.config.MQTT_HEARTBEAT_S + 1) * 1000);
    expect(await t.app.deviceLink.markSilentLocksOffline(later)).toBeGreaterThanOrEqual(1);
    expect((await deviceOf(lock.deviceId)).online).toBe(false);
  });

  it('writes a batch as one time, the earliest heard, and leaves a lock marked offline meanwhile offline', async () => {
    const [a, b, gone] = [await addLock(), await addLock(), await addLock()];
    for (const lock of [a, b, gone]) await lock.report(70);
    await waitFor(
      async () =>
        (await Promise.all([a, b, gone].map((l) => deviceOf(l.deviceId)))).every((d) => d.online)
          ? true
          : undefined,
      'three locks online',
    );
    await t.app.db.updateTable('devices').set({ online: 0 }).where('id', '=', gone.deviceId).execute();
    const seen = new SeenLocks(t.app.db, t.app.log);
    const earliest = Date.now() + 60_000;
    seen.add(a.deviceId, earliest);
    seen.add(b.deviceId, earliest + 500);
    seen.add(a.deviceId, earliest + 900); // a lock heard twice keeps its first time
    seen.add(gone.deviceId, earliest + 100);
    await seen.flush();
    const [da, db, dgone] = (await Promise.all([a, b, gone].map((l) => deviceOf(l.deviceId)))) as [
      Awaited<ReturnType<typeof deviceOf>>,
      Awaited<ReturnType<typeof deviceOf>>,
      Awaited<ReturnType<typeof deviceOf>>,
    ];
    expect([da.lastSeenAt, db.lastSeenAt]).toEqual([
      new Date(earliest).toISOString(),
      new Date(earliest).toISOString(),
    ]);
    expect(dgone.online).toBe(false);
    expect(dgone.lastSeenAt).not.toBe(new Date(earliest).toISOString());
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { deviceTopic, type CredentialSet, type LockEvent } from '@latchkey/shared';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  aclFile,
  exportMosquittoFiles,
  mosquittoConf,
  mosquittoFilePaths,
  passwordFile,
  serverAccount,
  serverAclFile,
} from '../src/features/device-link/mosquitto-export';
import { TestApp } from './test-app';
import { canConnect, freePort, waitFor } from './net-helpers';

/**
 * MQTT_URL mode against a real Mosquitto started for this test with the files and listeners
 * `npm run mqtt:export` writes and prints: the broker checks the locks' secrets ($7$ hashes), the
 * topic ACL and that a lock's client id is its own, and two servers on one database share the lock
 * topics through a shared subscription on the servers' listener.
 */

const MOSQUITTO = '/usr/sbin/mosquitto';
/** With Redis, the two servers also share the live channel: the full scale-out picture. */
const redisUrl = process.env.TEST_REDIS_URL;
const haveMosquitto = fs.existsSync(MOSQUITTO);
if (!haveMosquitto)
  console.warn(`skipping the Mosquitto tests: ${MOSQUITTO} not installed (apt-get install -y mosquitto)`);

describe.skipIf(!haveMosquitto)('device link over an external Mosquitto (MQTT_URL)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-mosquitto-'));
  const serverPassword = crypto.randomBytes(12).toString('hex');
  /** The locks' listener; the servers connect to their own (serverPort, in brokerUrl). */
  let port: number;
  let serverPort: number;
  let brokerUrl: string;
  let mosquitto: ChildProcess;
  let first: TestApp;
  let second: TestApp;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    port = await freePort();
    serverPort = await freePort();
    brokerUrl = `mqtt://latchkey:${serverPassword}@127.0.0.1:${serverPort}`;
    // Only the server's account at first; the locks come with the export below.
    const files = mosquittoFilePaths(dir);
    fs.writeFileSync(files.serverPasswordPath, passwordFile([serverAccount(brokerUrl)!]), { mode: 0o600 });
    fs.writeFileSync(files.serverAclPath, serverAclFile('latchkey'));
    fs.writeFileSync(files.passwordPath, passwordFile([]), { mode: 0o600 });
    fs.writeFileSync(files.aclPath, aclFile());
    const conf = path.join(dir, 'mosquitto.conf');
    fs.writeFileSync(
      conf,
      [
        'persistence false',
        // Started as root, Mosquitto would drop to its own user, who cannot read the owner-only file.
        ...(process.getuid?.() === 0 ? ['user root'] : []),
        // The listeners exactly as the export prints them.
        mosquittoConf(dir, { lockListener: `${port} 127.0.0.1`, serverListener: `${serverPort} 127.0.0.1` }),
      ].join('\n'),
    );
    mosquitto = spawn(MOSQUITTO, ['-c', conf], { stdio: 'ignore' });
    await waitFor(async () => (await canConnect(port)) && canConnect(serverPort), 'mosquitto to listen');

    const shared = { MQTT_URL: brokerUrl, ...(redisUrl && { REDIS_URL: redisUrl }) };
    first = await TestApp.start({ ...shared, LOGIN_LIMIT_PER_IP: '1000' });
    // A second server process on the same database, as in a scaled-out deployment.
    second = await TestApp.start({
      ...shared,
      DATA_DIR: first.app.config.DATA_DIR,
      ...(first.app.config.DATABASE_URL && { DATABASE_URL: first.app.config.DATABASE_URL }),
    });
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await second?.close();
    await first?.close();
    mosquitto?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** What each client receives, per topic, from its first packet on (a session's queue comes at once). */
  const inboxes = new WeakMap<MqttClient, Map<string, unknown[]>>();
  const inbox = (client: MqttClient) => inboxes.get(client)!;

  const connectLock = async (deviceId: string, secret: string, options: mqtt.IClientOptions = {}) => {
    const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
      clientId: deviceId,
      username: deviceId,
      password: secret,
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 3000,
      ...options,
    });
    clients.push(client);
    const received = new Map<string, unknown[]>();
    inboxes.set(client, received);
    client.on('message', (topic, payload) => {
      received.set(topic, [
        ...(received.get(topic) ?? []),
        payload.length ? JSON.parse(String(payload)) : null,
      ]);
    });
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', (error) => {
        client.end(true);
        reject(error);
      });
      client.once('close', () => reject(new Error('closed before CONNACK')));
    });
    return client;
  };

  const addLock = async (token: string) => {
    const created = await first.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token,
      payload: { name: `Door ${crypto.randomUUID().slice(0, 4)}`, model: 'latchkey-sim', timeZone: 'UTC' },
    });
    return { deviceId: created.json().device._id as string, secret: created.json().deviceSecret as string };
  };

  it('admits locks from the exported files, delivers their credentials and shares their events', async () => {
    const admin = await first.signUp();
    const addLock = async () => {
      const created = await first.request({
        method: 'POST',
        url: '/api3/portal/device/new',
        token: admin.token,
        payload: { name: `Door ${crypto.randomUUID().slice(0, 4)}`, model: 'latchkey-sim', timeZone: 'UTC' },
      });
      return { deviceId: created.json().device._id as string, secret: created.json().deviceSecret as string };
    };
    const lock = await addLock();
    const other = await addLock();

    const exported = await exportMosquittoFiles(first.app.db, dir, brokerUrl);
    expect(exported).toMatchObject({ locks: 2, withoutHash: 0, serverUsername: 'latchkey' });
    mosquitto.kill('SIGHUP'); // Mosquitto rereads its password and ACL files
    const client = await waitFor(
      () => connectLock(lock.deviceId, lock.secret).catch(() => undefined),
      'the lock to be admitted',
    );
    await expect(connectLock(lock.deviceId, 'wrong secret')).rejects.toThrow(
      /Bad username or password|Not authorized/i,
    );

    const received = new Map<string, unknown[]>();
    client.on('message', (topic, payload) => {
      received.set(topic, [
        ...(received.get(topic) ?? []),
        payload.length ? JSON.parse(payload.toString()) : null,
      ]);
    });
    const topic = (name: Parameters<typeof deviceTopic>[1]) => deviceTopic(lock.deviceId, name);
    await client.subscribeAsync([topic('credentials'), topic('events/ack')], { qos: 1 });
    await client.publishAsync(
      topic('status'),
      JSON.stringify({
        online: true,
        battery: 55,
        lockState: 'locked',
        firmware: 'm-1',
        credentialsVersion: 0,
        ts: new Date().toISOString(),
      }),
      { qos: 1, retain: true },
    );
    const set = await waitFor(
      () => received.get(topic('credentials'))?.[0] as CredentialSet | undefined,
      'a credential set',
    );
    expect(set).toMatchObject({ deviceId: lock.deviceId, version: 1 });

    // The ACL keeps a lock out of another's topics: Mosquitto drops the message quietly.
    const forged: LockEvent = {
      eventId: crypto.randomUUID(),
      ts: new Date().toISOString(),
      type: 'unlock',
      method: 'manual',
      credentialId: null,
      reason: null,
      commandId: null,
    };
    await client.publishAsync(deviceTopic(other.deviceId, 'events'), JSON.stringify(forged), { qos: 1 });

    // Events spread over both servers; each is stored once and acknowledged.
    const handledBy = { first: 0, second: 0 };
    for (const [name, t] of [
      ['first', first],
      ['second', second],
    ] as const) {
      const link = t.app.deviceLink;
      const handle = link.handle.bind(link);
      link.handle = async (message) => {
        if (message.topic === 'events') handledBy[name]++;
        return handle(message);
      };
    }
    // A browser connected to the second server sees every event, the first server's too (Redis).
    const liveEvents: string[] = [];
    let socket: WebSocket | null = null;
    if (redisUrl) {
      await second.app.listen({ port: 0, host: '127.0.0.1' });
      const { port: livePort } = second.app.server.address() as net.AddressInfo;
      socket = new WebSocket(`ws://127.0.0.1:${livePort}/api3/live`);
      const messages: { type: string; event?: { eventId: string } }[] = [];
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as (typeof messages)[number];
        messages.push(message);
        if (message.type === 'device.event') liveEvents.push(message.event!.eventId);
      });
      await new Promise((resolve) => socket!.once('open', resolve));
      socket.send(JSON.stringify({ type: 'auth', token: admin.token }));
      await waitFor(() => messages.some((m) => m.type === 'ready') || undefined, 'the live channel');
      socket.send(JSON.stringify({ type: 'subscribe', portalId: admin.portalId }));
      await waitFor(() => messages.some((m) => m.type === 'subscribed') || undefined, 'the subscription');
    }

    const events = Array.from({ length: 12 }, (_, i) => ({ ...forged, eventId: `e-${i}` }));
    for (const event of events) await client.publishAsync(topic('events'), JSON.stringify(event), { qos: 1 });
    await waitFor(
      () => (received.get(topic('events/ack'))?.length ?? 0) >= events.length || undefined,
      'all acks',
    );
    const stored = await first.app.db.selectFrom('device_events').select(['device_id', 'event_id']).execute();
    expect(stored.filter((row) => row.device_id === lock.deviceId)).toHaveLength(events.length);
    expect(stored.filter((row) => row.event_id === forged.eventId)).toEqual([]);
    expect(handledBy.first).toBeGreaterThan(0);
    expect(handledBy.second).toBeGreaterThan(0);
    expect(handledBy.first + handledBy.second).toBe(events.length);
    if (socket) {
      await waitFor(() => liveEvents.length >= events.length || undefined, 'every event on the live channel');
      expect([...liveEvents].sort()).toEqual(events.map((e) => e.eventId).sort());
      socket.close();
    }
  });

  it("gives a lock that logs in with another lock's client id nothing of that lock's", async () => {
    const admin = await first.signUp();
    const attacker = await addLock(admin.token);
    const victim = await addLock(admin.token);
    await exportMosquittoFiles(first.app.db, dir, brokerUrl);
    mosquitto.kill('SIGHUP');
    const topic = (name: Parameters<typeof deviceTopic>[1]) => deviceTopic(victim.deviceId, name);
    const sendUnlock = async () => {
      const sent = await first.request({
        method: 'POST',
        url: `/api3/device/${victim.deviceId}/command`,
        token: admin.token,
        payload: { action: 'unlock' },
      });
      expect(sent.statusCode).toBe(202);
      return sent.json().commandId as string;
    };
    const commandIn = (received: Map<string, unknown[]>, commandId: string) =>
      (received.get(topic('commands')) as { commandId: string }[] | undefined)?.find(
        (command) => command.commandId === commandId,
      );

    // The victim keeps a persistent session (clean=false, which the protocol allows).
    const real = await waitFor(
      () => connectLock(victim.deviceId, victim.secret, { clean: false }).catch(() => undefined),
      'the victim to be admitted',
    );
    await real.subscribeAsync([topic('credentials'), topic('commands')], { qos: 1 });
    // Online, as a lock says on connect: commands go only to a lock that is connected.
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
    await waitFor(
      async () =>
        (
          await first.request({
            method: 'GET',
            url: `/api3/portal/device/${victim.deviceId}`,
            token: admin.token,
          })
        ).json().online === true || undefined,
      'the victim online',
    );

    // The attacker's own valid secret with the victim's id as client id.
    const attack = () =>
      connectLock(attacker.deviceId, attacker.secret, { clientId: victim.deviceId, clean: false }).catch(
        () => null,
      );
    const intruder = await attack();

    // The victim's connection was not replaced: a command sent now reaches it there.
    const live = await sendUnlock();
    await waitFor(() => commandIn(inbox(real), live), 'the command on the victim’s connection');
    expect(real.connected).toBe(true);

    // Away with its persistent session, the victim's queued command does not go to the attacker.
    await real.endAsync();
    await intruder?.endAsync();
    const queued = await sendUnlock();
    const again = await attack();
    const back = await connectLock(victim.deviceId, victim.secret, { clean: false });
    await waitFor(() => commandIn(inbox(back), queued), 'the queued command on the victim’s return');
    // Whatever Mosquitto made of the attacker's logins, nothing of the victim's reached them.
    for (const client of [intruder, again]) {
      if (client)
        expect([...inbox(client).keys()].filter((name) => name.includes(victim.deviceId))).toEqual([]);
    }
  });
});

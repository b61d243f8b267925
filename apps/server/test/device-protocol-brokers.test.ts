import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deviceTopic, type CredentialSet, type DeviceCommand, type LockEvent } from '@latchkey/shared';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  aclFile,
  exportMosquittoFiles,
  mosquittoConf,
  mosquittoFilePaths,
  passwordFile,
  serverAccount,
  serverAclFile,
} from '../src/features/device-link/mosquitto-export';
import type { LockMessage } from '../src/features/device-link/device-transport';
import { TestApp } from './test-app';
import { canConnect, freePort, waitFor } from './net-helpers';

/**
 * What docs/device-protocol.md says a lock meets on Mosquitto configured as `npm run mqtt:export`
 * prints (MQTT_URL mode), where it differs from the embedded broker: the CONNACK code of a refused
 * login, the SUBACK of a subscription outside the lock's topics, the PUBACK of a publication outside
 * them, and what becomes of another lock's id as client id; and that the guarantees hold all the
 * same: nothing outside its topics reaches the lock, and nothing it publishes there is stored.
 * (The embedded broker's answers: device-link.test.ts and broker-hardening.test.ts.)
 */

const MOSQUITTO = '/usr/sbin/mosquitto';
const haveMosquitto = fs.existsSync(MOSQUITTO);
if (!haveMosquitto)
  console.warn(
    `skipping the Mosquitto protocol tests: ${MOSQUITTO} not installed (apt-get install -y mosquitto)`,
  );

// CONNACK return code and SUBACK code of MQTT 3.1.1 (§3.2.2.3, §3.9.3).
const NOT_AUTHORIZED = 5;
const GRANTED_QOS_1 = 1;
/** MQTT 5's reason code for the same refusals, in a CONNACK or a PUBACK. */
const NOT_AUTHORIZED_V5 = 0x87;

function lockEvent(): LockEvent {
  return {
    eventId: crypto.randomUUID(),
    ts: new Date().toISOString(),
    type: 'unlock',
    method: 'manual',
    credentialId: null,
    reason: null,
    commandId: null,
  };
}

interface Lock {
  deviceId: string;
  secret: string;
}

describe.skipIf(!haveMosquitto)('device protocol v1 on Mosquitto with the exported configuration', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-protocol-'));
  const serverPassword = crypto.randomBytes(12).toString('hex');
  /** The locks' listener. */
  let port: number;
  let brokerUrl: string;
  let mosquitto: ChildProcess;
  let t: TestApp;
  let admin: { token: string };
  /** Every message a lock published that reached the server, whichever lock's topic it was on. */
  const handled: LockMessage[] = [];
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    port = await freePort();
    const serverPort = await freePort();
    brokerUrl = `mqtt://latchkey:${serverPassword}@127.0.0.1:${serverPort}`;
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
        mosquittoConf(dir, { lockListener: `${port} 127.0.0.1`, serverListener: `${serverPort} 127.0.0.1` }),
      ].join('\n'),
    );
    mosquitto = spawn(MOSQUITTO, ['-c', conf], { stdio: 'ignore' });
    await waitFor(async () => (await canConnect(port)) && canConnect(serverPort), 'mosquitto to listen');

    t = await TestApp.start({ MQTT_URL: brokerUrl, LOGIN_LIMIT_PER_IP: '1000' });
    admin = await t.signUp();
    const link = t.app.deviceLink;
    const handle = link.handle.bind(link);
    link.handle = (message) => {
      handled.push(message);
      return handle(message);
    };
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.endAsync(true)));
    await t?.close();
    mosquitto?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** What each client receives, per topic, from its first packet on. */
  const inboxes = new WeakMap<MqttClient, Map<string, unknown[]>>();
  const inbox = (client: MqttClient) => inboxes.get(client)!;

  /** An MQTT 3.1.1 client logging in as `lock` (its id as client id unless `options` says otherwise). */
  const connect = async (lock: Lock, options: IClientOptions = {}) => {
    const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
      clientId: lock.deviceId,
      username: lock.deviceId,
      password: lock.secret,
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

  /** The CONNACK return code a refused login gets. */
  const refusalCode = (lock: Lock, options: IClientOptions = {}) =>
    connect(lock, options).then(
      () => {
        throw new Error('the login was admitted');
      },
      (error: { code?: number }) => error.code,
    );

  /** Adds locks in the portal, then exports the files and has Mosquitto reread them. */
  const addLocks = async (count: number): Promise<Lock[]> => {
    const locks: Lock[] = [];
    for (let i = 0; i < count; i++) {
      const created = await t.request({
        method: 'POST',
        url: '/api3/portal/device/new',
        token: admin.token,
        payload: { name: `Door ${crypto.randomUUID().slice(0, 4)}`, model: 'latchkey-sim', timeZone: 'UTC' },
      });
      expect(created.statusCode).toBe(201);
      locks.push({ deviceId: created.json().device._id, secret: created.json().deviceSecret });
    }
    // Each new lock's first credential set is published (retained) before the test goes on.
    await t.app.deviceLink.flushScheduledSyncs();
    await exportMosquittoFiles(t.app.db, dir, brokerUrl);
    mosquitto.kill('SIGHUP');
    // Admitted once Mosquitto has reloaded (the login is ended again at once).
    await waitFor(
      () =>
        connect(locks.at(-1)!).then(
          (client) => client.endAsync().then(() => true),
          () => undefined,
        ),
      'the new locks to be admitted',
    );
    return locks;
  };

  const sendCommand = async (deviceId: string) => {
    const sent = await t.request({
      method: 'POST',
      url: `/api3/device/${deviceId}/command`,
      token: admin.token,
      payload: { action: 'unlock' },
    });
    expect(sent.statusCode).toBe(202);
    return sent.json().commandId as string;
  };

  /** A lock's status as the broker hands it over: online, so commands are sent to it (not refused). */
  const reportOnline = (deviceId: string) =>
    t.app.deviceLink.handle({
      deviceId,
      topic: 'status',
      payload: Buffer.from(
        JSON.stringify({
          online: true,
          battery: 80,
          lockState: 'locked',
          firmware: 't-1',
          credentialsVersion: 0,
          ts: new Date().toISOString(),
        }),
      ),
    });

  const commandIn = (client: MqttClient, deviceId: string, commandId: string) =>
    (inbox(client).get(deviceTopic(deviceId, 'commands')) as DeviceCommand[] | undefined)?.some(
      (command) => command.commandId === commandId,
    );

  it('refuses a wrong secret, an unknown lock and a deleted one with return code 5 (not authorized)', async () => {
    const [lock, deleted] = await addLocks(2);
    expect(await refusalCode({ ...lock!, secret: 'not-the-secret' })).toBe(NOT_AUTHORIZED);
    expect(await refusalCode({ deviceId: crypto.randomUUID(), secret: lock!.secret })).toBe(NOT_AUTHORIZED);

    // A deleted lock: once Mosquitto rereads the files exported without it, its open connection
    // ends and its logins are refused.
    const open = await connect(deleted!);
    const closed = new Promise((resolve) => open.once('close', () => resolve(undefined)));
    const response = await t.request({
      method: 'DELETE',
      url: `/api3/portal/device/${deleted!.deviceId}`,
      token: admin.token,
    });
    expect(response.statusCode).toBe(204);
    await exportMosquittoFiles(t.app.db, dir, brokerUrl);
    mosquitto.kill('SIGHUP');
    await closed;
    expect(await refusalCode(deleted!)).toBe(NOT_AUTHORIZED);
  });

  it("grants a subscription outside the lock's topics but delivers nothing on it", async () => {
    const [mine, theirs] = await addLocks(2);
    // Their credential set is on the broker, retained, for a subscription to bring at once.
    const theirSync = await t.app.db
      .selectFrom('device_credential_sync')
      .select('sent_version')
      .where('device_id', '=', theirs!.deviceId)
      .executeTakeFirstOrThrow();
    expect(theirSync.sent_version).toBe(1);
    const client = await connect(mine!);
    const granted = await client.subscribeAsync(
      [deviceTopic(theirs!.deviceId, 'credentials'), deviceTopic(theirs!.deviceId, 'commands'), 'lk/v1/#'],
      { qos: 1 },
    );
    expect(granted.map((g) => g.qos)).toEqual([GRANTED_QOS_1, GRANTED_QOS_1, GRANTED_QOS_1]);
    await client.subscribeAsync(
      [deviceTopic(mine!.deviceId, 'credentials'), deviceTopic(mine!.deviceId, 'commands')],
      { qos: 1 },
    );

    // Their retained set and a command to them are not delivered; the lock's own, sent after them, are.
    await waitFor(
      () => inbox(client).get(deviceTopic(mine!.deviceId, 'credentials')),
      'its own credential set',
    );
    await Promise.all([reportOnline(theirs!.deviceId), reportOnline(mine!.deviceId)]);
    await sendCommand(theirs!.deviceId);
    const own = await sendCommand(mine!.deviceId);
    await waitFor(() => commandIn(client, mine!.deviceId, own), 'its own command');
    expect([...inbox(client).keys()].filter((topic) => !topic.includes(mine!.deviceId))).toEqual([]);
    expect(client.connected).toBe(true);
  });

  it("acknowledges a publication outside the lock's topics, drops it and keeps the connection", async () => {
    const [mine, theirs] = await addLocks(2);
    const client = await connect(mine!);
    await client.subscribeAsync(
      [deviceTopic(mine!.deviceId, 'credentials'), deviceTopic(mine!.deviceId, 'events/ack')],
      { qos: 1 },
    );
    const realSet = await waitFor(
      () => inbox(client).get(deviceTopic(mine!.deviceId, 'credentials'))?.[0] as CredentialSet | undefined,
      'its credential set',
    );
    const handledBefore = handled.length;

    // Another lock's events, its own server topic (a forged retained set) and a topic outside lk/v1:
    // each gets its PUBACK, as if taken.
    const forged = lockEvent();
    await client.publishAsync(deviceTopic(theirs!.deviceId, 'events'), JSON.stringify(forged), { qos: 1 });
    await client.publishAsync(
      deviceTopic(mine!.deviceId, 'credentials'),
      JSON.stringify({ ...realSet, version: realSet.version + 1, entries: [] }),
      { qos: 1, retain: true },
    );
    await client.publishAsync('elsewhere/events', JSON.stringify(forged), { qos: 1 });
    expect(client.connected).toBe(true);

    // An event on its own topic, published after them, is stored and acknowledged on the same
    // connection; by then the server would have had the others.
    const own = lockEvent();
    await client.publishAsync(deviceTopic(mine!.deviceId, 'events'), JSON.stringify(own), { qos: 1 });
    await waitFor(() => inbox(client).get(deviceTopic(mine!.deviceId, 'events/ack')), 'the events/ack');
    expect(inbox(client).get(deviceTopic(mine!.deviceId, 'events/ack'))).toEqual([
      { eventIds: [own.eventId] },
    ]);
    expect(handled.slice(handledBefore).map((m) => [m.deviceId, m.topic])).toEqual([
      [mine!.deviceId, 'events'],
    ]);
    const stored = await t.app.db
      .selectFrom('device_events')
      .select('event_id')
      .where('event_id', 'in', [forged.eventId, own.eventId])
      .execute();
    expect(stored.map((row) => row.event_id)).toEqual([own.eventId]);

    // Nor did the broker deliver or keep the forged set: subscribing again brings the server's.
    await client.subscribeAsync(deviceTopic(mine!.deviceId, 'credentials'), { qos: 1 });
    const sets = await waitFor(() => {
      const received = inbox(client).get(deviceTopic(mine!.deviceId, 'credentials'));
      return received && received.length >= 2 ? received : undefined;
    }, 'the retained set again');
    expect(sets).toEqual([realSet, realSet]);
  });

  it("replaces another lock's id as client id by the username, so the login is the lock's own", async () => {
    const [attacker, victim] = await addLocks(2);
    // The victim keeps a persistent session (clean=false, which the protocol allows).
    const real = await connect(victim!, { clean: false });
    await real.subscribeAsync(deviceTopic(victim!.deviceId, 'commands'), { qos: 1 });
    await reportOnline(victim!.deviceId);
    const attackersOwn = await connect(attacker!);
    const attackerClosed = new Promise((resolve) => attackersOwn.once('close', () => resolve(undefined)));

    // The attacker's valid secret with the victim's id as client id is admitted, as the attacker:
    // it takes over the attacker's own connection (same client id), not the victim's.
    const intruder = await connect(attacker!, { clientId: victim!.deviceId, clean: false });
    await attackerClosed;
    const live = await sendCommand(victim!.deviceId);
    await waitFor(() => commandIn(real, victim!.deviceId, live), 'the command on the victim’s connection');
    expect(real.connected).toBe(true);

    // The victim's queued command, sent while it is away, waits for the victim, not the intruder.
    await real.endAsync();
    const queued = await sendCommand(victim!.deviceId);
    await intruder.endAsync();
    const again = await connect(attacker!, { clientId: victim!.deviceId, clean: false });
    const back = await connect(victim!, { clean: false });
    await waitFor(
      () => commandIn(back, victim!.deviceId, queued),
      'the queued command on the victim’s return',
    );
    for (const client of [intruder, again]) {
      expect([...inbox(client).keys()].filter((topic) => topic.includes(victim!.deviceId))).toEqual([]);
    }
  });

  it('says not authorized (0x87) in the CONNACK and the PUBACK to a lock on MQTT 5', async () => {
    const [mine, theirs] = await addLocks(2);
    expect(await refusalCode({ ...mine!, secret: 'not-the-secret' }, { protocolVersion: 5 })).toBe(
      NOT_AUTHORIZED_V5,
    );
    const client = await connect(mine!, { protocolVersion: 5 });
    const forged = lockEvent();
    await expect(
      client.publishAsync(deviceTopic(theirs!.deviceId, 'events'), JSON.stringify(forged), { qos: 1 }),
    ).rejects.toMatchObject({ code: NOT_AUTHORIZED_V5 });
    expect(client.connected).toBe(true);
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LockFleet } from '@latchkey/locksim';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TestApp } from './test-app';

// "A crash or restart loses no acknowledged data": the server is killed with SIGKILL while many
// simulated locks send their events, which the server stores in batches (group commit: many locks'
// events per transaction, acknowledged only after it commits); after a restart every event is in
// the history exactly once. On SQLite (WAL + synchronous=FULL) and, with TEST_DATABASE_URL, on
// PostgreSQL (the child servers use the test's database).

const serverMain = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const LOCKS = 25;
const EVENTS_PER_LOCK = 60;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs the real server (main.ts) as a child process, resolving once it is listening. */
function startServer(env: Record<string, string>): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', serverMain], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Latchkey is running')) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${output}`)));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(check: () => boolean, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** The (device, event id) pairs stored, read from whichever database the servers used. */
async function storedEvents(dataDir: string, databaseUrl: string | undefined) {
  const query = 'select device_id, event_id from device_events';
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query<{ device_id: string; event_id: string }>(query)).rows;
    } finally {
      await client.end();
    }
  }
  const db = new Database(path.join(dataDir, 'latchkey.sqlite'), { readonly: true });
  try {
    return db.prepare(query).all() as { device_id: string; event_id: string }[];
  } finally {
    db.close();
  }
}

/** Drops the test's PostgreSQL database (TestApp.close would, but the app is closed early here). */
async function dropDatabase(databaseUrl: string) {
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

describe('a crash while locks report', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('keeps every acknowledged event, and stores each event once after a SIGKILL and a restart', async () => {
    // Set up a portal with ten locks through the API, then hand the data folder to real servers.
    const t = await TestApp.start();
    const dataDir = t.app.config.DATA_DIR;
    const databaseUrl = t.app.config.DATABASE_URL;
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    if (databaseUrl) cleanups.push(() => dropDatabase(databaseUrl));
    const admin = await t.signUp();
    const locks: { deviceId: string; secret: string }[] = [];
    for (let i = 0; i < LOCKS; i++) {
      const response = await t.request({
        method: 'POST',
        url: '/api3/portal/device/new',
        token: admin.token,
        payload: { name: `Door ${i}`, model: 'latchkey-sim', timeZone: 'UTC' },
      });
      locks.push({ deviceId: response.json().device._id, secret: response.json().deviceSecret });
    }
    await t.app.close();

    const mqttPort = await freePort();
    const env = {
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      DEMO_DATA: 'false',
      DEMO_LOCKS: 'false',
      LOG_LEVEL: 'info',
      WEB_DIST: path.join(dataDir, 'no-web'),
      MQTT_MAX_CONNECTIONS_PER_IP: String(LOCKS + 10),
      ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    };
    let server = await startServer(env);
    cleanups.push(() => {
      server.kill('SIGKILL');
    });

    const fleet = new LockFleet({
      url: `mqtt://127.0.0.1:${mqttPort}`,
      locks,
      heartbeatSeconds: 0,
      reconnectPeriodMs: 200,
    });
    cleanups.push(() => fleet.stop());
    const sent = new Set<string>();
    const acked = new Set<string>();
    fleet.on('event', (deviceId, event) => sent.add(`${deviceId} ${event.eventId}`));
    fleet.on('eventsAcked', ({ deviceId, dropped }) => {
      for (const eventId of dropped) acked.add(`${deviceId} ${eventId}`);
    });
    expect((await fleet.start()).connected).toHaveLength(LOCKS);

    // A steady stream; the server dies (no shutdown at all) once part of it is acknowledged,
    // with more still on the way, and the rest is sent while it is down.
    const sendRounds = async (from: number, to: number) => {
      for (let round = from; round < to; round++) {
        for (const { deviceId } of locks) fleet.get(deviceId).turnManually();
        await sleep(10);
      }
    };
    await sendRounds(0, 40);
    await waitUntil(() => acked.size >= LOCKS * 15, 'part of the stream to be acknowledged');
    const ackedBeforeKill = acked.size;
    server.kill('SIGKILL');
    await sendRounds(40, EVENTS_PER_LOCK);
    expect(sent.size).toBe(LOCKS * EVENTS_PER_LOCK);

    // The locks kept what was not acknowledged; a restarted server takes it, storing each once.
    server = await startServer(env);
    await waitUntil(() => acked.size === sent.size, 'every event to be acknowledged');
    await fleet.stop();
    await new Promise<void>((resolve) => {
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
    });

    const stored = await storedEvents(dataDir, databaseUrl);
    const storedKeys = stored.map((row) => `${row.device_id} ${row.event_id}`);
    expect(ackedBeforeKill).toBeGreaterThan(0);
    expect(storedKeys).toHaveLength(LOCKS * EVENTS_PER_LOCK);
    expect(new Set(storedKeys)).toEqual(sent);
  }, 120_000);
});

import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { floodEvents } from '@latchkey/locksim';
import mqtt from 'mqtt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePorts, startCluster, type RunningCluster } from '../src/cluster/cluster';
import { openDatabase, type Database } from '../src/db/database';
import { seedLockFleet } from '../src/demo/seed-lock-fleet';
import { freePort } from './net-helpers';

/**
 * The scale-out set as an operator deploys it (issue 18), from an empty PostgreSQL database: the
 * export works before anything else has run, a server waits for a broker that is not there yet and
 * names MQTT_URL, and `npm run cluster`'s set (Mosquitto from the export, two servers, Redis) takes a
 * fleet of several hundred locks sending events as fast as their acks allow without Mosquitto
 * dropping a message and without a lock having to resend one. Runs in the services run
 * (TEST_DATABASE_URL and TEST_REDIS_URL) where Mosquitto is installed.
 */

const MOSQUITTO = '/usr/sbin/mosquitto';
const baseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const runs = Boolean(baseUrl && redisUrl && fs.existsSync(MOSQUITTO));
if (!runs)
  console.warn('skipping the scale-out set: it needs TEST_DATABASE_URL, TEST_REDIS_URL and Mosquitto');

const FLEET_LOCKS = 500;
const EVENTS_PER_LOCK = 10;
const IN_FLIGHT = 5;
const repoRoot = path.resolve(import.meta.dirname, '../../..');

async function adminQuery(statement: string) {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Runs one of the repository's commands (`node --import tsx <file>`) as an operator would. */
function runCommand(file: string, args: string[], env: Record<string, string>, timeout = 60_000) {
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(repoRoot, file), ...args], {
    cwd: repoRoot,
    env: { ...process.env, LOG_FORMAT: 'json', ...env },
    encoding: 'utf8',
    timeout,
  });
}

describe.skipIf(!runs)('the scale-out set, from an empty database', () => {
  const name = `latchkey_scaleout_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-scale-out-'));
  let databaseUrl: string;
  let cluster: RunningCluster | null = null;
  let db: Database;

  beforeAll(async () => {
    await adminQuery(`create database ${name}`);
    const url = new URL(baseUrl!);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  });

  afterAll(async () => {
    await cluster?.stop();
    await db?.destroy();
    if (baseUrl) await adminQuery(`drop database if exists ${name} with (force)`);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('exports the broker files from a database nothing has run on yet (it migrates first)', () => {
    const exported = runCommand(
      'apps/server/src/features/device-link/mosquitto-export-cli.ts',
      [path.join(dir, 'first-export'), '--lock-port', '8883', '--lock-address', '10.0.0.5'],
      { DATABASE_URL: databaseUrl, MQTT_URL: 'mqtt://latchkey:secret@10.0.0.9:1884' },
    );
    expect(exported.stderr).toBe('');
    expect(exported.status).toBe(0);
    expect(exported.stdout).toContain('(0 locks)');
    expect(exported.stdout).toContain('listener 8883 10.0.0.5');
    expect(exported.stdout).toContain('listener 1884 10.0.0.9');
    // Usable as written: owner-only password files, belonging to whoever Mosquitto runs as.
    expect(fs.statSync(path.join(dir, 'first-export/passwd')).mode & 0o777).toBe(0o600);
    expect(exported.stdout).toMatch(/so Mosquitto must run as \S+/);
    // Run as root where Debian's package made its user, the files are given to that user, whom
    // Mosquitto drops to before it reads them.
    const mosquittoUser = spawnSync('id', ['-u', 'mosquitto'], { encoding: 'utf8' });
    if (process.getuid?.() === 0 && mosquittoUser.status === 0) {
      expect(fs.statSync(path.join(dir, 'first-export/passwd')).uid).toBe(
        Number(mosquittoUser.stdout.trim()),
      );
      expect(exported.stdout).toContain('so Mosquitto must run as mosquitto');
    }

    const again = runCommand('apps/server/src/db/migrate-cli.ts', [], { DATABASE_URL: databaseUrl });
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('already up to date');
  });

  it('a server whose broker is not there yet waits for it, names MQTT_URL, and stops with a reason', async () => {
    const port = await freePort();
    const started = Date.now();
    const server = runCommand(
      'apps/server/src/main.ts',
      [],
      {
        DATABASE_URL: databaseUrl,
        DATA_DIR: path.join(dir, 'lonely-server'),
        PORT: '0',
        DEMO_DATA: 'false',
        MQTT_URL: `mqtt://latchkey:secret@127.0.0.1:${port}`,
        MQTT_WAIT_S: '2',
      },
      90_000,
    );
    expect(server.status).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(server.stdout).toContain(
      `waiting for the broker at MQTT_URL mqtt://latchkey:***@127.0.0.1:${port}`,
    );
    expect(server.stderr).toContain(
      `MQTT_URL: no MQTT broker answered at mqtt://latchkey:***@127.0.0.1:${port}`,
    );
    expect(server.stdout + server.stderr).not.toContain('secret');
  });

  it(`takes ${FLEET_LOCKS} locks' events through Mosquitto and two servers: none dropped, none resent, each stored once`, async () => {
    const [lockPort, serverMqttPort, ...serverPorts] = await freePorts(4);
    cluster = await startCluster({
      serverPorts,
      host: '127.0.0.1',
      lockPort: lockPort!,
      lockAddress: '127.0.0.1',
      serverMqttPort: serverMqttPort!,
      dir: path.join(dir, 'cluster'),
      databaseUrl,
      redisUrl: redisUrl!,
      mosquittoPath: MOSQUITTO,
      demoLocks: false,
      exportEveryMs: 500,
      env: { ...process.env, DEMO_DATA: 'false', LOG_LEVEL: 'warn', PLAN_LOCK_LIMITS: 'false' },
      output: () => {},
    });
    // The second server started alongside the first: both joined the shared subscription.
    expect(cluster.servers).toHaveLength(2);

    // A portal with the fleet's locks, added as the portal adds them (with the broker's hash).
    ({ db } = openDatabase({ databaseUrl, dataDir: dir }));
    const { locks } = await seedLockFleet(db, FLEET_LOCKS);
    // No one exports by hand: the set's watcher rewrites the files and reloads Mosquitto.
    const passwd = path.join(dir, 'cluster/passwd');
    const deadline = Date.now() + 15_000;
    while (fs.readFileSync(passwd, 'utf8').split('\n').filter(Boolean).length < FLEET_LOCKS) {
      if (Date.now() > deadline) throw new Error('the export watcher did not pick up the fleet');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // Mosquitto reloads between its loops

    const result = await floodEvents({
      url: cluster.lockUrl,
      locks,
      eventsPerLock: EVENTS_PER_LOCK,
      inFlight: IN_FLIGHT,
      timeoutMs: 90_000,
    });
    const { eventIds: _ids, ...figures } = result;
    console.log('scale-out fleet:', JSON.stringify(figures));
    const drops = cluster.mosquittoLog.filter((line) => line.includes('dropped'));
    expect(drops).toEqual([]);
    expect(result.unacknowledged).toBe(0);
    expect(result.resent).toBe(0);

    const stored = await db
      .selectFrom('device_events')
      .select((eb) => [
        eb.fn.countAll<number>().as('rows'),
        eb.fn.count<number>('event_id').distinct().as('events'),
      ])
      .where(
        'device_id',
        'in',
        locks.map((lock) => lock.deviceId),
      )
      .executeTakeFirstOrThrow();
    expect(Number(stored.rows)).toBe(FLEET_LOCKS * EVENTS_PER_LOCK);
    expect(Number(stored.events)).toBe(FLEET_LOCKS * EVENTS_PER_LOCK);
    console.log(
      `scale-out fleet: ${FLEET_LOCKS} locks × ${EVENTS_PER_LOCK} events through Mosquitto and 2 servers: ${Math.round(result.eventsPerSecond)} events/s, 0 dropped, 0 resent`,
    );

    // A lock deleted in the portal is off the broker within the watcher's period, no one in the loop.
    const [gone] = locks;
    await db
      .updateTable('devices')
      .set({ deleted_at: new Date().toISOString() })
      .where('id', '=', gone!.deviceId)
      .execute();
    const login = () =>
      mqtt.connectAsync(
        cluster!.lockUrl,
        {
          clientId: gone!.deviceId,
          username: gone!.deviceId,
          password: gone!.secret,
          reconnectPeriod: 0,
          connectTimeout: 5000,
        },
        false,
      );
    const refusedBy = Date.now() + 10_000;
    for (;;) {
      const refused = await login().then(
        async (client) => (await client.endAsync(true), false),
        (error: { code?: number }) => error.code === 5,
      );
      if (refused) break;
      if (Date.now() > refusedBy) throw new Error('a deleted lock could still log in to Mosquitto');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 240_000);

  it('a server whose MQTT_URL password the broker refuses stops at once and says so', () => {
    const wrong = new URL(cluster!.mqttUrl);
    wrong.password = 'not-the-password';
    const started = Date.now();
    const server = runCommand('apps/server/src/main.ts', [], {
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(dir, 'refused-server'),
      PORT: '0',
      DEMO_DATA: 'false',
      MQTT_URL: wrong.toString(),
      MQTT_WAIT_S: '60',
    });
    expect(server.status).toBe(1);
    expect(server.stderr).toContain("refused the server's login");
    expect(server.stderr).not.toContain('not-the-password');
    // Not waited for: a refused login is a configuration to fix, not a broker still starting.
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

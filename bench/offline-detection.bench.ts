/**
 * npm run bench:offline: offline detection with a fleet connected. The server runs as `npm start`
 * runs it (the build, a process of its own) over a portal of OFFLINE_LOCKS locks, all connected as
 * simulated locks (packages/locksim) sending their status heartbeat every OFFLINE_HEARTBEAT_S; then
 * OFFLINE_DROPS other locks, which connected without a last will, drop at random moments of one
 * heartbeat period (their connection just ends: nobody tells the server). Measured, lock by lock:
 * the time from the drop to the live channel showing the lock offline, against the bound the
 * settings promise (MQTT_HEARTBEAT_S = 1.5 heartbeats, plus one sweep period); the locks wrongly
 * shown offline (should be none); the server's CPU for the fleet's heartbeats as a ratio to a bare
 * aedes broker receiving the same heartbeats from the same fleet; and the heartbeat sweep itself
 * (one UPDATE) over the full fleet, with its query plan. Not a test: it prints a table.
 *
 * Full size (docs/benchmarks.md): the defaults, 10,000 locks, 30 s heartbeats (a few minutes).
 * Small: OFFLINE_LOCKS=300 OFFLINE_HEARTBEAT_S=2 OFFLINE_DROPS=10. BENCH_DATABASE_URL=postgres://…
 * runs it on PostgreSQL (a fresh database, dropped after). OFFLINE_PROFILE_DIR=<dir> writes a CPU
 * profile of the server there.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { decodeBase64, deviceTopic, newBoxKeyPair, sealPayload } from '@latchkey/shared';
import { LockFleet } from '@latchkey/locksim';
import { CompiledQuery, sql } from 'kysely';
import mqtt, { type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { openDatabase } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { seedLargePortal } from '../apps/server/src/demo/seed-large';
import { markSilentLocksOffline } from '../apps/server/src/features/device-link/device-link.repository';
import { benchDatabase } from './bench-database';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOCKS = Number(process.env.OFFLINE_LOCKS ?? 10_000);
const HEARTBEAT_S = Number(process.env.OFFLINE_HEARTBEAT_S ?? 30);
const DROPS = Number(process.env.OFFLINE_DROPS ?? 20);
/** The server's settings, as their defaults relate to the heartbeat (config.ts, device-link.service). */
const TIMEOUT_S = HEARTBEAT_S * 1.5;
const SWEEP_S = Math.min(5, Math.max(0.25, TIMEOUT_S / 4));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const seconds = (ms: number) => (ms / 1000).toFixed(1);
const benchStarted = performance.now();
/** Progress on stderr, so a long run shows where it is. */
const progress = (what: string) =>
  process.stderr.write(`  [${seconds(performance.now() - benchStarted)} s] ${what}\n`);
/** A fleet leaves cleanly, or is left behind after 30 s (a lock cut off mid-goodbye waits forever). */
const stopFleet = (fleet: LockFleet) => Promise.race([fleet.stop().catch(() => {}), sleep(30_000)]);

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSecondsOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Spawns a process and resolves with what `ready` finds in one of its stdout lines. */
function spawnUntil<T>(
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: (line: string) => T | undefined,
): Promise<{ child: ChildProcess; value: T }> {
  const child = spawn(command, args, {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const value = ready(line);
      if (value !== undefined) resolve({ child, value });
    });
    child.once('exit', (code) =>
      reject(new Error(`${command} ${args.join(' ')} exited (${code}) before it was ready`)),
    );
  });
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
}

/** A lock that connected without a last will: status on connect and every heartbeat, until it drops. */
class WilllessLock {
  private timer: NodeJS.Timeout | null = null;
  private constructor(
    readonly deviceId: string,
    private readonly client: MqttClient,
  ) {}

  static async connect(url: string, deviceId: string) {
    const client = await mqtt.connectAsync(url, {
      clientId: deviceId,
      username: deviceId,
      password: deviceId, // seedLargePortal's secret is the device id
      protocolVersion: 4,
      reconnectPeriod: 0,
      keepalive: HEARTBEAT_S,
    });
    const lock = new WilllessLock(deviceId, client);
    lock.report();
    // Heartbeats at a random phase, as a fleet's are.
    setTimeout(
      () => {
        lock.report();
        lock.timer = setInterval(() => lock.report(), HEARTBEAT_S * 1000);
      },
      Math.random() * HEARTBEAT_S * 1000,
    );
    return lock;
  }

  private report() {
    const status = {
      online: true,
      battery: 90,
      lockState: 'locked',
      firmware: 'bench-1',
      credentialsVersion: 0,
    };
    this.client.publish(
      deviceTopic(this.deviceId, 'status'),
      JSON.stringify({ ...status, ts: new Date().toISOString() }),
      {
        qos: 1,
      },
    );
  }

  /** The connection just ends: no DISCONNECT, no last will, nothing more from this lock. */
  drop(): number {
    if (this.timer) clearInterval(this.timer);
    this.client.stream.destroy();
    this.client.end(true);
    return performance.now();
  }
}

/** The server's CPU use per second of wall time over `ms`. */
async function cpuShare(pid: number, ms: number): Promise<number> {
  const before = cpuSecondsOf(pid);
  const started = performance.now();
  await sleep(ms);
  return (cpuSecondsOf(pid) - before) / ((performance.now() - started) / 1000);
}

async function main() {
  console.log(
    `Offline detection: ${LOCKS.toLocaleString('en')} connected locks, heartbeat ${HEARTBEAT_S} s, ` +
      `MQTT_HEARTBEAT_S ${TIMEOUT_S} s, sweep every ${SWEEP_S} s, ${DROPS} locks dropping without a last will` +
      (process.env.BENCH_DATABASE_URL ? ' (PostgreSQL)' : ' (SQLite)'),
  );
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-offline-bench-'));
  const database = await benchDatabase('offline');
  const processes: ChildProcess[] = [];
  let fleet: LockFleet | null = null;
  try {
    // The portal, written in bulk; each lock's secret is its id.
    const seeded = openDatabase({ databaseUrl: database.url, dataDir });
    await migrateToLatest(seeded.db);
    const { portalId, ownerEmail, password } = await seedLargePortal(seeded.db, {
      devices: LOCKS + DROPS,
      users: 2,
      credentials: 2,
      groups: 1,
    });
    progress('portal seeded');
    const deviceIds = (
      await seeded.db
        .selectFrom('devices')
        .select('id')
        .where('portal_id', '=', portalId)
        .orderBy('id')
        .execute()
    ).map((row) => row.id);
    await seeded.db.destroy();
    const fleetIds = deviceIds.slice(0, LOCKS);
    const dropIds = deviceIds.slice(LOCKS);

    execFileSync(process.execPath, [path.join(REPO, 'apps/server/build.mjs')], { stdio: 'ignore' });
    const { child: server, value: urls } = await (async () => {
      let mqttUrl = '';
      return spawnUntil(
        process.execPath,
        // OFFLINE_PROFILE_DIR: a CPU profile of the server (written when it stops).
        [
          ...(process.env.OFFLINE_PROFILE_DIR
            ? ['--cpu-prof', `--cpu-prof-dir=${process.env.OFFLINE_PROFILE_DIR}`]
            : []),
          'apps/server/dist/main.js',
        ],
        {
          DATA_DIR: dataDir,
          ...(database.url && { DATABASE_URL: database.url }),
          PORT: '0',
          MQTT_PORT: '0',
          HOST: '127.0.0.1',
          DEMO_DATA: 'false',
          LOG_FORMAT: 'json',
          LOG_LEVEL: 'info',
          MQTT_HEARTBEAT_S: String(TIMEOUT_S),
          MQTT_MAX_CONNECTIONS_PER_IP: String(LOCKS + DROPS + 100),
          MAIL_POLL_MS: '0',
        },
        (line) => {
          const record = JSON.parse(line) as { msg?: string; url?: string; port?: number };
          if (record.msg === 'mqtt: embedded broker listening') mqttUrl = record.url!;
          if (record.msg?.startsWith('Latchkey is running'))
            return { http: `http://127.0.0.1:${record.port}`, mqtt: mqttUrl };
          return undefined;
        },
      );
    })();
    processes.push(server);
    progress(`server running (${urls.http}, ${urls.mqtt})`);

    // The "browser": the portal owner's live channel.
    const { publicKey } = (await (await fetch(`${urls.http}/api3/auth/sealKey`)).json()) as {
      publicKey: string;
    };
    const login = await fetch(`${urls.http}/api3/auth/secure/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        sealPayload({ email: ownerEmail, password }, decodeBase64(publicKey), newBoxKeyPair()),
      ),
    });
    const { token } = (await login.json()) as { token: string };
    const shownOffline = new Map<string, number>();
    const socket = new WebSocket(`${urls.http.replace('http', 'ws')}/api3/live`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const subscribed = new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as {
          type: string;
          device?: { _id: string; online: boolean };
        };
        if (message.type === 'ready') socket.send(JSON.stringify({ type: 'subscribe', portalId }));
        if (message.type === 'subscribed') resolve();
        if (message.type === 'device.status' && message.device && !message.device.online) {
          if (!shownOffline.has(message.device._id)) shownOffline.set(message.device._id, performance.now());
        }
      }),
    );
    socket.send(JSON.stringify({ type: 'auth', token }));
    await subscribed;

    // The fleet connects and keeps sending heartbeats.
    const connectStarted = performance.now();
    fleet = new LockFleet({
      url: urls.mqtt,
      locks: fleetIds.map((deviceId) => ({ deviceId, secret: deviceId })),
      heartbeatSeconds: HEARTBEAT_S,
      connectConcurrency: 100,
      reconnectPeriodMs: 0,
    });
    const started = await fleet.start();
    const connectSeconds = (performance.now() - connectStarted) / 1000;
    progress(`fleet logged in in ${connectSeconds.toFixed(1)} s`);
    const droppers = await Promise.all(dropIds.map((id) => WilllessLock.connect(urls.mqtt, id)));
    const onlineTotal = async () => {
      const response = await fetch(
        `${urls.http}/api3/portal/devices?filterBy=online&filterValue=true&limit=1`,
        {
          headers: { authorization: `Bearer ${token}` },
        },
      );
      return ((await response.json()) as { total: number }).total;
    };
    // Every lock has reported and the server has caught up with the connections.
    const settleDeadline = performance.now() + Math.max(60_000, HEARTBEAT_S * 4000);
    while ((await onlineTotal()) < LOCKS + DROPS && performance.now() < settleDeadline) await sleep(500);
    const onlineBefore = await onlineTotal();
    progress(`${onlineBefore} locks shown online; measuring the heartbeat load`);
    // From here on every lock is online: a fleet lock shown offline now is a false alarm. (While the
    // fleet logs in, its heartbeats have not started, so a short heartbeat can time out early locks.)
    shownOffline.clear();

    // Steady state: the server's CPU for the heartbeats (one heartbeat period, at least 5 s).
    const serverCpu = await cpuShare(server.pid!, Math.max(5000, HEARTBEAT_S * 1000));

    progress('dropping locks');
    // The drops: each at a random moment of one heartbeat period.
    const droppedAt = new Map<string, number>();
    await Promise.all(
      droppers.map(async (lock) => {
        await sleep(Math.random() * HEARTBEAT_S * 1000);
        droppedAt.set(lock.deviceId, lock.drop());
      }),
    );
    const waitUntil = performance.now() + (TIMEOUT_S + SWEEP_S + 15) * 1000;
    while (!dropIds.every((id) => shownOffline.has(id)) && performance.now() < waitUntil) await sleep(100);
    const detection = dropIds.map((id) => (shownOffline.get(id) ?? Infinity) - droppedAt.get(id)!);
    const falseOffline = fleetIds.filter((id) => shownOffline.has(id)).length;
    const onlineAfter = await onlineTotal();
    socket.close();

    await stopFleet(fleet);
    fleet = null;
    await stop(server);

    progress('bare broker baseline');
    // The bare baseline: an aedes broker alone receiving the same fleet's heartbeats.
    const { child: bare, value: bareUrl } = await spawnUntil(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { Aedes } from 'aedes'; import net from 'node:net';" +
          'const broker = await Aedes.createBroker(); const server = net.createServer(broker.handle);' +
          "server.listen(0, '127.0.0.1', () => console.log('mqtt://127.0.0.1:' + server.address().port));",
      ],
      {},
      (line) => (line.startsWith('mqtt://') ? line : undefined),
    );
    processes.push(bare);
    const bareFleet = new LockFleet({
      url: bareUrl,
      locks: fleetIds.map((deviceId) => ({ deviceId, secret: deviceId })),
      heartbeatSeconds: HEARTBEAT_S,
      connectConcurrency: 100,
      reconnectPeriodMs: 0,
    });
    fleet = bareFleet;
    await bareFleet.start();
    await sleep(HEARTBEAT_S * 1000); // past the logins, into the heartbeats
    const bareCpu = await cpuShare(bare.pid!, Math.max(5000, HEARTBEAT_S * 1000));
    await stopFleet(bareFleet);
    fleet = null;
    await stop(bare);

    progress('the sweep query');
    // The sweep itself over the whole fleet connected: its plan, and the UPDATE when nothing is
    // silent (every sweep) and when every lock went silent at once (the worst run).
    const check = openDatabase({ databaseUrl: database.url, dataDir });
    const now = new Date().toISOString();
    await check.db
      .updateTable('devices')
      .set({ online: 1, last_seen_at: now })
      .where('portal_id', '=', portalId)
      .execute();
    const sweep = check.db
      .updateTable('devices')
      .set({ online: 0, updated_at: now })
      .where('online', '=', sql.lit(1))
      .where('last_seen_at', '<', now)
      .compile();
    const explain = check.dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
    const planRows = (
      await check.db.executeQuery(CompiledQuery.raw(explain + sweep.sql, [...sweep.parameters]))
    ).rows;
    const plan = planRows
      .map((row) =>
        check.dialect === 'sqlite' ? (row as { detail: string }).detail : Object.values(row as object)[0],
      )
      .join(check.dialect === 'sqlite' ? '; ' : ' ')
      .replace(/\s+/g, ' ');
    const timed = async (cutoff: string) => {
      const begin = performance.now();
      const marked = await markSilentLocksOffline(check.db, cutoff);
      return { ms: performance.now() - begin, marked: marked.length };
    };
    const idle = [];
    for (let i = 0; i < 20; i++)
      idle.push((await timed(new Date(Date.now() - TIMEOUT_S * 1000).toISOString())).ms);
    const all = await timed(new Date(Date.now() + 60_000).toISOString());
    await check.db.destroy();

    const bound = (TIMEOUT_S + SWEEP_S) * 1000;
    const rows: [string, string][] = [
      [
        'locks connected (fleet + droppers)',
        `${started.connected.length + droppers.length} (${started.failed.length} refused), logins took ${connectSeconds.toFixed(1)} s`,
      ],
      ['shown online before the drops', `${onlineBefore} of ${LOCKS + DROPS}`],
      [
        'drop → shown offline, p50 / max',
        `${seconds(percentile(detection, 50))} s / ${seconds(Math.max(...detection))} s`,
      ],
      [
        'bound (MQTT_HEARTBEAT_S + sweep period)',
        `${seconds(bound)} s; max / bound ${(Math.max(...detection) / bound).toFixed(2)}`,
      ],
      ['dropped locks never shown offline', String(detection.filter((d) => !Number.isFinite(d)).length)],
      ['fleet locks wrongly shown offline', String(falseOffline)],
      ['shown online after', `${onlineAfter} (expected ${LOCKS})`],
      ['heartbeats per second', (LOCKS / HEARTBEAT_S).toFixed(0)],
      [
        'server CPU (cores) for them / bare broker',
        `${serverCpu.toFixed(3)} / ${bareCpu.toFixed(3)} = ${(serverCpu / bareCpu).toFixed(1)}×`,
      ],
      [
        'sweep, nothing silent: p50 / p95 ms',
        `${percentile(idle, 50).toFixed(2)} / ${percentile(idle, 95).toFixed(2)}`,
      ],
      [`sweep, all ${all.marked} silent at once: ms`, all.ms.toFixed(1)],
      ['sweep plan', plan],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    for (const [key, value] of rows) console.log(`| ${key.padEnd(width)} | ${value} |`);
  } finally {
    if (fleet) await stopFleet(fleet);
    for (const child of processes) await stop(child);
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

/**
 * npm run bench:production: the server as `npm start` runs it (the build, plain Node).
 *
 * 1. Start time, to listening (the server's own `startedMs`: from the process's start), with the
 *    demo portal: on a fresh data folder (the demo is created) and on an existing one; median of
 *    PRODUCTION_START_RUNS. Beside it, the same server through the TypeScript loader (tsx, as before)
 *    and a bare Fastify process (Fastify, better-sqlite3 opening its file, one route): ratios to it.
 * 2. Memory: the large portal (seed:large: 5,000 locks, 50,000 people, 100,000 credentials) in a
 *    fresh data folder, the build started on it, then the paged lock and people lists driven over
 *    HTTP by autocannon (10 and 50 connections, PRODUCTION_LOAD_SECONDS each). RSS is sampled from
 *    /proc while it runs; the peak is the kernel's high-water mark (VmHWM). Beside it, the bare
 *    Fastify process under the same load on its route.
 *
 * Not a test: it prints a table. Small: PRODUCTION_SIZE=small (a portal a tenth the size, 3 s of
 * load). BENCH_DATABASE_URL=postgres://… puts the large portal on PostgreSQL (a fresh database).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { decodeBase64, newBoxKeyPair, sealPayload } from '@latchkey/shared';
import autocannon from 'autocannon';
import { openDatabase } from '../apps/server/src/db/database';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { BENCHMARK_SIZE, seedLargePortal, type LargePortalSize } from '../apps/server/src/demo/seed-large';
import { benchDatabase } from './bench-database';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SMALL = process.env.PRODUCTION_SIZE === 'small';
const RUNS = Number(process.env.PRODUCTION_START_RUNS ?? (SMALL ? 3 : 5));
const LOAD_SECONDS = Number(process.env.PRODUCTION_LOAD_SECONDS ?? (SMALL ? 3 : 20));
const SIZE: LargePortalSize = SMALL
  ? { devices: 500, users: 5_000, credentials: 10_000, groups: 10 }
  : BENCHMARK_SIZE;
const MEMORY_LIMIT_MB = 300;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A process's resident memory now and at its peak (MB), from /proc. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

interface Running {
  child: ChildProcess;
  port: number;
  startedMs: number;
  /** CPU time the process used to get there: steadier than the wall time on a busy machine. */
  startCpuMs: number;
}

/** Spawns a server and resolves once a stdout line says it listens (with its startedMs). */
function startServer(args: string[], env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, args, {
    cwd: REPO,
    env: { ...process.env, PORT: '0', MQTT_PORT: '0', HOST: '127.0.0.1', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      let record: { startedMs?: number; startCpuMs?: number; port?: number };
      try {
        record = JSON.parse(line);
      } catch {
        return;
      }
      if (record.startedMs !== undefined) {
        resolve({ child, port: record.port!, startedMs: record.startedMs, startCpuMs: record.startCpuMs! });
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before listening`)));
  });
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000).then(() => child.kill('SIGKILL'))]);
}

/** The bare stack: Fastify, better-sqlite3 opening a file, one route answering a page of rows. */
const BARE_SERVER = `
import Fastify from 'fastify';
import SQLite from 'better-sqlite3';
const db = new SQLite(process.env.BARE_DB);
db.pragma('journal_mode = WAL');
db.exec('create table if not exists items (id integer primary key, name text)');
if (db.prepare('select count(*) as n from items').get().n === 0) {
  const insert = db.prepare('insert into items (name) values (?)');
  db.transaction(() => { for (let i = 0; i < 5000; i++) insert.run('Door ' + i); })();
}
const page = db.prepare('select id, name from items order by name limit 25 offset ?');
const app = Fastify();
app.get('/items', async (request) => ({ items: page.all(Number(request.query.skip ?? 0)) }));
await app.listen({ port: 0, host: '127.0.0.1' });
const cpu = process.cpuUsage();
console.log(JSON.stringify({ port: app.server.address().port, startedMs: Math.round(performance.now()), startCpuMs: Math.round((cpu.user + cpu.system) / 1000) }));
`;

function startBare(dir: string) {
  return startServer(['--input-type=module', '-e', BARE_SERVER], { BARE_DB: path.join(dir, 'bare.sqlite') });
}

/** Start to listening, wall and CPU time, medians of RUNS; `fresh` empties the data folder first. */
async function startTimes(args: string[], dataDir: string, fresh: boolean, env: Record<string, string> = {}) {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    if (fresh) fs.rmSync(dataDir, { recursive: true, force: true });
    const server = await startServer(args, { DATA_DIR: dataDir, ...env });
    wall.push(server.startedMs);
    cpu.push(server.startCpuMs);
    await stop(server.child);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

async function signIn(port: number, email: string, password: string): Promise<string> {
  const base = `http://127.0.0.1:${port}`;
  const { publicKey } = (await (await fetch(`${base}/api3/auth/sealKey`)).json()) as { publicKey: string };
  const response = await fetch(`${base}/api3/auth/secure/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(sealPayload({ email, password }, decodeBase64(publicKey), newBoxKeyPair())),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** autocannon over `paths` (round robin) with `connections`; RSS sampled meanwhile. */
async function load(pid: number, port: number, paths: string[], connections: number, token?: string) {
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(memoryOf(pid).rss), 200);
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: LOAD_SECONDS,
    requests: paths.map((p) => ({ method: 'GET', path: p })),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  clearInterval(sampler);
  return {
    perSecond: result.requests.average,
    p97: result.latency.p97_5,
    errors: result.errors + result.non2xx,
    rss: Math.max(...samples),
  };
}

async function main() {
  console.log(
    `Production start: ${RUNS} runs per start figure; memory with a portal of ${SIZE.devices.toLocaleString('en')} locks, ` +
      `${SIZE.users.toLocaleString('en')} people under ${LOAD_SECONDS} s of list load per step` +
      (process.env.BENCH_DATABASE_URL ? ' (PostgreSQL)' : ' (SQLite)'),
  );
  execFileSync(process.execPath, [path.join(REPO, 'apps/server/build.mjs')], { stdio: 'ignore' });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-production-bench-'));
  const database = await benchDatabase('production');
  const children: ChildProcess[] = [];
  try {
    // 1. Start time. The demo portal's simulated locks start too (the default), as after npm start.
    const built = ['apps/server/dist/main.js'];
    const viaTsx = ['--import', 'tsx', 'apps/server/src/main.ts'];
    const demoDir = path.join(root, 'demo');
    const builtFresh = await startTimes(built, demoDir, true);
    const builtExisting = await startTimes(built, demoDir, false);
    const tsxExisting = await startTimes(viaTsx, demoDir, false);
    const bareWall: number[] = [];
    const bareCpu: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const bare = await startBare(root);
      bareWall.push(bare.startedMs);
      bareCpu.push(bare.startCpuMs);
      await stop(bare.child);
    }
    const bareStart = { wall: median(bareWall), cpu: median(bareCpu) };

    // 2. Memory with the large portal.
    const largeDir = path.join(root, 'large');
    const seeding = openDatabase({ databaseUrl: database.url, dataDir: largeDir });
    await migrateToLatest(seeding.db);
    const { ownerEmail, password } = await seedLargePortal(seeding.db, SIZE);
    await seeding.db.destroy();
    const server = await startServer(built, {
      DATA_DIR: largeDir,
      ...(database.url && { DATABASE_URL: database.url }),
    });
    children.push(server.child);
    const token = await signIn(server.port, ownerEmail, password);
    await sleep(2000);
    const idle = memoryOf(server.child.pid!).rss;
    const pages = Array.from({ length: 20 }, (_, i) => i * 25);
    const listPaths = [
      ...pages.map((skip) => `/api3/portal/devices?skip=${skip}&limit=25&sortBy=name`),
      ...pages.map((skip) => `/api3/portal/users?skip=${skip * 10}&limit=25`),
    ];
    const load10 = await load(server.child.pid!, server.port, listPaths, 10, token);
    const load50 = await load(server.child.pid!, server.port, listPaths, 50, token);
    const { peak } = memoryOf(server.child.pid!);
    await stop(server.child);

    const bare = await startBare(root);
    children.push(bare.child);
    const bareIdle = memoryOf(bare.child.pid!).rss;
    const bare50 = await load(
      bare.child.pid!,
      bare.port,
      pages.map((skip) => `/items?skip=${skip}`),
      50,
    );
    const barePeak = memoryOf(bare.child.pid!).peak;
    await stop(bare.child);

    const ms = (value: number) => `${Math.round(value)} ms`;
    const timing = (t: { wall: number; cpu: number }) =>
      `${ms(t.wall)} (${(t.wall / bareStart.wall).toFixed(1)}× bare), CPU ${ms(t.cpu)} (${(t.cpu / bareStart.cpu).toFixed(1)}× bare)`;
    const mb = (value: number) => `${Math.round(value)} MB`;
    const rows: [string, string][] = [
      ['start to listening, fresh data folder (demo created)', timing(builtFresh)],
      ['start to listening, existing data folder', timing(builtExisting)],
      [
        'the same through tsx (before), existing folder',
        `${ms(tsxExisting.wall)}, CPU ${ms(tsxExisting.cpu)} (${(tsxExisting.cpu / builtExisting.cpu).toFixed(2)}× the build)`,
      ],
      ['bare Fastify + better-sqlite3', `${ms(bareStart.wall)}, CPU ${ms(bareStart.cpu)}`],
      ['RSS, large portal, idle after sign-in', mb(idle)],
      [
        'RSS under list load, 10 / 50 connections',
        `${mb(load10.rss)} / ${mb(load50.rss)} (${Math.round(load10.perSecond)} / ${Math.round(load50.perSecond)} req/s, p97.5 ${load10.p97} / ${load50.p97} ms, ${load10.errors + load50.errors} errors)`,
      ],
      [
        'peak RSS (VmHWM)',
        `${mb(peak)}: ${peak < MEMORY_LIMIT_MB ? 'under' : 'OVER'} ${MEMORY_LIMIT_MB} MB; ${(peak / barePeak).toFixed(1)}× bare`,
      ],
      [
        'bare: RSS idle / peak under 50 connections',
        `${mb(bareIdle)} / ${mb(barePeak)} (${Math.round(bare50.perSecond)} req/s)`,
      ],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    for (const [key, value] of rows) console.log(`| ${key.padEnd(width)} | ${value} |`);
  } finally {
    for (const child of children) await stop(child);
    await database.drop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

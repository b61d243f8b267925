/**
 * npm run bench (grant changes): how long one change to access takes to reach the locks it
 * concerns, with simulated locks (packages/locksim) applying and acknowledging each set, against a
 * bare aedes broker handing the same sets to the same locks in the same run.
 *
 * - One change reaching every lock of a portal of N locks (a person in a group with every lock gets
 *   a new code): until every lock has applied its new set, and until the server has recorded every
 *   lock's credentials/ack. Bare: the same set published to each lock, until every ack is back.
 * - One change reaching one lock (a person given, then refused, direct access to it), in a portal of
 *   10 locks and in one of N locks, interleaved: both should cost the same. Bare: one set, one ack.
 *
 *   GRANT_CHANGE_SIZES=1000        portal sizes N (by hand: 1000,10000)
 *   GRANT_CHANGE_FANOUT_RUNS=3     changes to every lock, per size (the median is shown)
 *   GRANT_CHANGE_ONE_LOCK_RUNS=20  one-lock changes per portal, per size (median and p90)
 *   BENCH_DATABASE_URL=postgres://…   PostgreSQL instead of SQLite (a fresh database per size)
 *   GRANT_CHANGE_PROFILE=1         the server side runs with a CPU profile written to the temp folder
 *
 * The locks run in a child process (bench/grant-change-fleet.ts); the broker and the server share
 * this one. Not a test: it prints figures; docs/benchmarks.md records runs.
 */
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { CredentialSet } from '@latchkey/shared';
import { Aedes } from 'aedes';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import type { Database } from '../apps/server/src/db/database';
import { grantDirectAccess, revokeDirectAccess } from '../apps/server/src/features/access/access.service';
import { changeAccess } from '../apps/server/src/base/access-changes/touched-locks';
import { createDemoAccount } from '../apps/server/src/features/auth/accounts';
import { setAccessCode } from '../apps/server/src/features/credentials/access-code.service';
import { hashDeviceSecret } from '../apps/server/src/features/devices/devices.service';
import { createGroup } from '../apps/server/src/features/groups/groups.service';
import { insertMembership } from '../apps/server/src/base/tenancy/memberships.repository';
import { findPortalOwnedBy } from '../apps/server/src/base/tenancy/portals.repository';
import { findDesiredSet } from '../apps/server/src/features/device-link/credential-set-bodies';
import type { FleetAnswer, FleetRequest } from './grant-change-fleet';
import { benchDatabase } from './bench-database';

const SIZES = (process.env.GRANT_CHANGE_SIZES ?? '1000').split(',').map((s) => Number(s.trim()));
const FANOUT_RUNS = Number(process.env.GRANT_CHANGE_FANOUT_RUNS ?? 3);
const ONE_LOCK_RUNS = Number(process.env.GRANT_CHANGE_ONE_LOCK_RUNS ?? 20);
const PROFILE = process.env.GRANT_CHANGE_PROFILE === '1';
const SMALL_PORTAL = 10;

/** Progress on stderr: a 10,000-lock run takes minutes. */
const progress = (message: string) => process.stderr.write(`grant-change bench: ${message}\n`);

interface Lock {
  deviceId: string;
  secret: string;
}

/** The fleet child process, one request at a time. */
class Fleet {
  private readonly child: ChildProcess;
  private pending: ((answer: FleetAnswer) => void) | null = null;

  constructor() {
    this.child = fork(fileURLToPath(new URL('./grant-change-fleet.ts', import.meta.url)), {
      execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
      stdio: 'inherit',
    });
    this.child.on('message', (answer: FleetAnswer) => {
      const pending = this.pending;
      this.pending = null;
      pending?.(answer);
    });
  }

  ask(request: FleetRequest): Promise<FleetAnswer> {
    return new Promise((resolve, reject) => {
      this.pending = (answer) =>
        answer.type === 'error' ? reject(new Error(answer.message)) : resolve(answer);
      this.child.send(request);
    });
  }

  async start(url: string, locks: Lock[]) {
    const answer = await this.ask({ type: 'start', url, locks });
    if (answer.type !== 'started' || answer.failed > 0)
      throw new Error(`locks failed to connect: ${JSON.stringify(answer)}`);
  }

  async versions(): Promise<Record<string, number>> {
    const answer = await this.ask({ type: 'versions' });
    return answer.type === 'versions' ? answer.versions : {};
  }

  /** Resolves when each lock has applied a version above the one given for it. */
  waitAbove(versions: Record<string, number>) {
    return this.ask({ type: 'waitAbove', versions });
  }

  stop() {
    return this.ask({ type: 'stop' });
  }

  kill() {
    this.child.kill();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const p90 = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.9))]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Figures {
  /** Milliseconds until every lock applied the change. */
  fanoutApplied: number;
  /** … and until every ack was recorded (bare: received). */
  fanoutConfirmed: number;
  /** One-lock change: milliseconds until the lock applied it, per run. */
  oneLock: number[];
  oneLockLarge?: number[];
}

/** A plain aedes broker: the same sets handed to the same locks, and their acks counted. */
async function bareBroker(fleet: Fleet, size: number, template: CredentialSet): Promise<Figures> {
  const acks = new Map<string, number>();
  let ackWaiters: (() => void)[] = [];
  const broker = await Aedes.createBroker({
    // No delivery limit, as the embedded broker: aedes's queue otherwise drains recursively.
    concurrency: 0,
    published: (packet, client, done) => {
      const match = client && /^lk\/v1\/([^/]+)\/credentials\/ack$/.exec(packet.topic);
      if (match) {
        const { version } = JSON.parse(packet.payload.toString()) as { version: number };
        acks.set(match[1]!, version);
        for (const waiter of ackWaiters) waiter();
      }
      queueMicrotask(() => done());
    },
  });
  const server = net.createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const publish = (deviceId: string, version: number) =>
    new Promise<void>((resolve, reject) =>
      broker.publish(
        {
          cmd: 'publish',
          topic: `lk/v1/${deviceId}/credentials`,
          payload: JSON.stringify({ ...template, deviceId, version }),
          qos: 1,
          retain: true,
          dup: false,
        },
        (error) => (error ? reject(error) : resolve()),
      ),
    );
  const acked = (locks: Lock[], version: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (locks.every((l) => (acks.get(l.deviceId) ?? 0) >= version)) {
          ackWaiters = ackWaiters.filter((w) => w !== check);
          resolve();
        }
      };
      ackWaiters.push(check);
      check();
    });
  try {
    const locks = Array.from({ length: size }, () => ({ deviceId: crypto.randomUUID(), secret: 'bare' }));
    progress(`bare broker: connecting ${size} locks`);
    await fleet.start(`mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`, locks);
    let version = 1;
    progress('bare broker: first sets');
    await Promise.all(locks.map((l) => publish(l.deviceId, version)));
    await acked(locks, version);
    const applied: number[] = [];
    const confirmed: number[] = [];
    for (let run = 0; run < FANOUT_RUNS; run++) {
      const before = await fleet.versions();
      version++;
      const started = performance.now();
      const reached = fleet.waitAbove(before);
      await Promise.all(locks.map((l) => publish(l.deviceId, version)));
      await reached;
      applied.push(performance.now() - started);
      await acked(locks, version);
      confirmed.push(performance.now() - started);
      progress(`bare broker: sets to ${size} locks applied in ${Math.round(applied.at(-1)!)} ms`);
    }
    const oneLock: number[] = [];
    for (let run = 0; run < ONE_LOCK_RUNS; run++) {
      const lock = locks[0]!;
      const before = await fleet.versions();
      version++;
      const started = performance.now();
      const reached = fleet.waitAbove({ [lock.deviceId]: before[lock.deviceId] ?? 0 });
      await publish(lock.deviceId, version);
      await reached;
      oneLock.push(performance.now() - started);
    }
    await fleet.stop();
    return { fanoutApplied: median(applied), fanoutConfirmed: median(confirmed), oneLock };
  } finally {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Locks straight into the table, in one transaction (10,000 added one by one take minutes). */
async function insertLocks(db: Database, portalId: string, count: number, prefix: string): Promise<Lock[]> {
  const locks = Array.from({ length: count }, () => ({
    deviceId: crypto.randomUUID(),
    secret: crypto.randomBytes(32).toString('base64url'),
  }));
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < locks.length; start += 500) {
      await trx
        .insertInto('devices')
        .values(
          locks.slice(start, start + 500).map((lock, i) => ({
            id: lock.deviceId,
            portal_id: portalId,
            name: `${prefix} ${start + i}`,
            model: 'latchkey-sim' as const,
            serial: null,
            time_zone: 'UTC',
            secret_hash: hashDeviceSecret(lock.secret),
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
  });
  return locks;
}

/** A portal of `size` locks with a person in a group with all of them, and a second person. */
async function makePortal(db: Database, name: string, size: number) {
  const owner = await createDemoAccount(db, {
    email: `${name}-${crypto.randomUUID().slice(0, 6)}@example.com`,
    password: 'a sturdy passphrase',
    firstName: 'Bench',
    lastName: name,
    portalName: name,
  });
  const portalId = (await findPortalOwnedBy(db, owner.id))!.id;
  const context = { portalId, actorUserId: owner.id, ip: '127.0.0.1' };
  const person = async () => {
    const member = await createDemoAccount(db, {
      email: `m-${crypto.randomUUID().slice(0, 8)}@example.com`,
      password: 'a sturdy passphrase',
      firstName: 'Member',
      lastName: name,
    });
    const now = new Date().toISOString();
    await insertMembership(db, {
      portal_id: portalId,
      user_id: member.id,
      role: 'user',
      status: 'active',
      created_at: now,
      updated_at: now,
    });
    return member.id;
  };
  const everywhere = await person();
  const visitor = await person();
  const locks = await insertLocks(db, portalId, size, name);
  const group = await createGroup(db, context, { name: 'Everywhere', description: '' });
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('group_users')
      .values({ portal_id: portalId, group_id: group._id, user_id: everywhere, created_at: now })
      .execute();
    for (let start = 0; start < locks.length; start += 500) {
      await trx
        .insertInto('group_devices')
        .values(
          locks.slice(start, start + 500).map((l) => ({
            portal_id: portalId,
            group_id: group._id,
            device_id: l.deviceId,
            created_at: now,
          })),
        )
        .execute();
    }
  });
  return { portalId, context, locks, everywhere, visitor };
}

/** How many of a portal's locks have confirmed their newest set. */
async function confirmedCount(db: Database, portalId: string): Promise<number> {
  const row = await db
    .selectFrom('device_credential_sync')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('portal_id', '=', portalId)
    .whereRef('confirmed_version', '=', 'desired_version')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The whole server over a fresh database: a portal of 10 locks and one of `size`. */
async function server(fleet: Fleet, size: number) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-bench-grants-'));
  const database = await benchDatabase('bench');
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'false',
      MQTT_PORT: '0',
      // The whole fleet connects from this one address, and sends no heartbeat.
      MQTT_MAX_CONNECTIONS_PER_IP: String(size + SMALL_PORTAL + 10),
      MQTT_CONNECT_TIMEOUT_S: '60',
      MQTT_HEARTBEAT_S: '3600',
      MAIL_POLL_MS: '0',
      WEB_DIST: path.join(dataDir, 'no-web'),
      ...(database.url && { DATABASE_URL: database.url }),
    }),
  );
  try {
    progress(`${app.dialect}: a portal of ${SMALL_PORTAL} locks and one of ${size}`);
    const small = await makePortal(app.db, 'Small', SMALL_PORTAL);
    const large = await makePortal(app.db, 'Large', size);
    // First sets for every lock: one change touching every lock of each portal.
    const firstStarted = performance.now();
    for (const portal of [small, large]) {
      const locks = portal.locks.map((lock) => lock.deviceId);
      await changeAccess(app.db, (_trx, touch) => touch(portal.portalId, { locks }));
    }
    await app.deviceLink.flushScheduledSyncs();
    const firstSets = performance.now() - firstStarted;
    progress(`first sets in ${Math.round(firstSets)} ms; connecting ${size + SMALL_PORTAL} locks`);
    await fleet.start(app.deviceLink.transport.url, [...small.locks, ...large.locks]);
    while ((await confirmedCount(app.db, large.portalId)) < size) await sleep(50);
    // A lock's first status may cross its retained set; let the sets sent again settle.
    await sleep(1000);
    const template = (await findDesiredSet(app.db, large.portalId, large.locks[0]!.deviceId))!.set;

    const profiler = PROFILE ? new Session() : null;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    // One change reaching every lock of the large portal: its everywhere-person's new code.
    const applied: number[] = [];
    const confirmed: number[] = [];
    for (let run = 0; run < FANOUT_RUNS; run++) {
      const before = await fleet.versions();
      const wanted = Object.fromEntries(large.locks.map((l) => [l.deviceId, before[l.deviceId] ?? 0]));
      const started = performance.now();
      const reached = fleet.waitAbove(wanted);
      await setAccessCode(app.db, large.context, large.everywhere, String(20_260_000 + run));
      await reached;
      applied.push(performance.now() - started);
      while ((await confirmedCount(app.db, large.portalId)) < size) await sleep(10);
      confirmed.push(performance.now() - started);
      progress(
        `change to ${size} locks: applied in ${Math.round(applied.at(-1)!)} ms, acks recorded in ${Math.round(confirmed.at(-1)!)} ms`,
      );
    }
    // One change reaching one lock, in the small and the large portal in turn.
    const oneLock: number[] = [];
    const oneLockLarge: number[] = [];
    for (let run = 0; run < ONE_LOCK_RUNS * 2; run++) {
      const portal = run % 2 === 0 ? small : large;
      const lock = portal.locks[0]!;
      const before = await fleet.versions();
      const started = performance.now();
      const reached = fleet.waitAbove({ [lock.deviceId]: before[lock.deviceId] ?? 0 });
      const change = Math.floor(run / 2) % 2 === 0 ? grantDirectAccess : revokeDirectAccess;
      await change(app.db, portal.context, lock.deviceId, portal.visitor);
      await reached;
      (portal === small ? oneLock : oneLockLarge).push(performance.now() - started);
    }
    if (profiler) {
      const { profile } = await profiler.post('Profiler.stop');
      const file = path.join(os.tmpdir(), `grant-change-${app.dialect}-${size}-${Date.now()}.cpuprofile`);
      fs.writeFileSync(file, JSON.stringify(profile));
      console.log(`CPU profile of the server side: ${file}`);
      profiler.disconnect();
    }
    await fleet.stop();
    const figures: Figures = {
      fanoutApplied: median(applied),
      fanoutConfirmed: median(confirmed),
      oneLock,
      oneLockLarge,
    };
    return { figures, template, firstSets, dialect: app.dialect };
  } finally {
    await app.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const fleet = new Fleet();
  try {
    for (const size of SIZES) {
      const measured = await server(fleet, size);
      const bare = await bareBroker(fleet, size, measured.template);
      const e = measured.figures;
      const ms = (value: number) => value.toFixed(0);
      const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}×`;
      console.log(
        `\nGrant changes, ${size} locks (${measured.dialect}; fan-out median of ${FANOUT_RUNS}, ` +
          `one-lock median and p90 of ${ONE_LOCK_RUNS}); first sets for ${size + SMALL_PORTAL} locks: ` +
          `${ms(measured.firstSets)} ms`,
      );
      console.table({
        [`one change → ${size} locks, all applied`]: {
          'bare ms': ms(bare.fanoutApplied),
          'server ms': ms(e.fanoutApplied),
          'server / bare': ratio(e.fanoutApplied, bare.fanoutApplied),
        },
        [`one change → ${size} locks, all acks recorded`]: {
          'bare ms': ms(bare.fanoutConfirmed),
          'server ms': ms(e.fanoutConfirmed),
          'server / bare': ratio(e.fanoutConfirmed, bare.fanoutConfirmed),
        },
        [`one-lock change, portal of ${SMALL_PORTAL} (median)`]: {
          'bare ms': ms(median(bare.oneLock)),
          'server ms': ms(median(e.oneLock)),
          'server / bare': ratio(median(e.oneLock), median(bare.oneLock)),
        },
        [`one-lock change, portal of ${size} (median)`]: {
          'bare ms': ms(median(bare.oneLock)),
          'server ms': ms(median(e.oneLockLarge!)),
          'server / bare': ratio(median(e.oneLockLarge!), median(bare.oneLock)),
        },
        [`one-lock change, portal of ${SMALL_PORTAL} (p90)`]: {
          'bare ms': ms(p90(bare.oneLock)),
          'server ms': ms(p90(e.oneLock)),
          'server / bare': ratio(p90(e.oneLock), p90(bare.oneLock)),
        },
        [`one-lock change, portal of ${size} (p90)`]: {
          'bare ms': ms(p90(bare.oneLock)),
          'server ms': ms(p90(e.oneLockLarge!)),
          'server / bare': ratio(p90(e.oneLockLarge!), p90(bare.oneLock)),
        },
      });
      console.log(
        `one-lock change, portal of ${size} / portal of ${SMALL_PORTAL}: median ` +
          `${ratio(median(e.oneLockLarge!), median(e.oneLock))}, p90 ${ratio(p90(e.oneLockLarge!), p90(e.oneLock))}`,
      );
    }
  } finally {
    fleet.kill();
  }
}

await main();

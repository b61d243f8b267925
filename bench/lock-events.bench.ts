/**
 * npm run bench (lock events at fleet scale): many locks publishing at once, each sending single
 * events and keeping LOCK_EVENTS_IN_FLIGHT of them awaiting `events/ack`, measured end to end
 * (lock → embedded broker → server → database → the live channel's WebSocket) and through a bare
 * aedes broker that acknowledges at once, with the same fleet in the same run. Two runs each:
 * saturation (every lock sends again as soon as an ack comes back: the most events/s) and a fixed
 * offered rate (the latency a browser sees at, say, 5,000 events/s; at saturation latency is only
 * the queue, in-flight events ÷ throughput). Prints events/s, p50/p99 lock-to-browser latency and
 * the ratio to the bare broker per fleet size.
 *
 *   LOCK_EVENTS_SIZES=100,1000   fleet sizes (locks), each in a portal of that many locks
 *   LOCK_EVENTS_SECONDS=5        measured seconds per run (after LOCK_EVENTS_WARMUP_SECONDS=2)
 *   LOCK_EVENTS_IN_FLIGHT=5      events each lock keeps awaiting their ack
 *   LOCK_EVENTS_RATE=5000        the offered rate (events/s, whole fleet) of the latency runs
 *   BENCH_DATABASE_URL=postgres://…   PostgreSQL instead of SQLite (a fresh database per size)
 *   LOCK_EVENTS_PROFILE=1        a CPU profile of the server side (broker, server) per run, in the
 *                                system's temporary folder (open it in Chrome's DevTools)
 *
 * The fleet runs in a child process (bench/lock-events-fleet.ts), as locks and browsers are other
 * machines; the broker and the server share this one. Not a test: it prints figures;
 * docs/benchmarks.md records runs.
 */
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { Aedes } from 'aedes';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { createDemoAccount } from '../apps/server/src/features/auth/accounts';
import { issueSessionToken } from '../apps/server/src/base/identity/sessions';
import { registerCard } from '../apps/server/src/features/credentials/rfid.service';
import { hashDeviceSecret } from '../apps/server/src/features/devices/devices.service';
import { findPortalOwnedBy } from '../apps/server/src/base/tenancy/portals.repository';
import { BROKER_CONCURRENCY } from '../apps/server/src/features/device-link/embedded-broker';
import type { FleetRunRequest, FleetRunResult } from './lock-events-fleet';
import { benchDatabase } from './bench-database';

const SIZES = (process.env.LOCK_EVENTS_SIZES ?? '100,1000').split(',').map((s) => Number(s.trim()));
const SECONDS = Number(process.env.LOCK_EVENTS_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.LOCK_EVENTS_WARMUP_SECONDS ?? 2);
const IN_FLIGHT = Number(process.env.LOCK_EVENTS_IN_FLIGHT ?? 5);
const RATE = Number(process.env.LOCK_EVENTS_RATE ?? 5000);
/** Saturation, then the fixed rate. */
const RATES = [null, RATE] as const;
const PROFILE = process.env.LOCK_EVENTS_PROFILE === '1';

/** A fleet run, with this process's CPU time per event over the measured window. */
type Measured = FleetRunResult & { cpuMsPerThousand: number };
/** `label` names the CPU profile of the measured window (LOCK_EVENTS_PROFILE=1). */
type Runner = { child: ChildProcess; run: (request: FleetRunRequest, label: string) => Promise<Measured> };

type FleetAnswer =
  | { mark: 'start' }
  | { mark: 'end'; acked: number }
  | { done: true; ok: boolean; result?: FleetRunResult; error?: string };

function startFleetProcess(): Runner {
  const child = fork(fileURLToPath(new URL('./lock-events-fleet.ts', import.meta.url)), {
    execArgv: [
      '--import',
      'tsx',
      '--max-old-space-size=4096',
      // The fleet's own profile (one file per thread) when it exits.
      ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(os.tmpdir(), 'lock-events-fleet')}`] : []),
    ],
    stdio: 'inherit',
  });
  let exited = false;
  child.once('exit', () => (exited = true));
  const run = (request: FleetRunRequest, label: string) =>
    new Promise<Measured>((resolve, reject) => {
      if (exited) return reject(new Error('the fleet process has exited'));
      let cpuAtStart = process.cpuUsage();
      let cpuMsPerThousand = NaN;
      let profile: Promise<() => Promise<void>> | null = null;
      const onExit = (code: number | null) => reject(new Error(`the fleet process exited (${code})`));
      const onMessage = (answer: FleetAnswer) => {
        if ('mark' in answer) {
          if (answer.mark === 'start') {
            cpuAtStart = process.cpuUsage();
            profile = startProfile(label);
          } else {
            const used = process.cpuUsage(cpuAtStart);
            cpuMsPerThousand = (used.user + used.system) / answer.acked;
            void profile?.then((stop) => stop());
          }
          return;
        }
        child.off('exit', onExit);
        child.off('message', onMessage);
        if (answer.ok) resolve({ ...answer.result!, cpuMsPerThousand });
        else reject(new Error(answer.error));
      };
      child.once('exit', onExit);
      child.on('message', onMessage);
      child.send(request);
    });
  return { child, run };
}

/** With LOCK_EVENTS_PROFILE=1, a CPU profile of this process until the returned function is called. */
async function startProfile(name: string): Promise<() => Promise<void>> {
  if (!PROFILE) return async () => {};
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    const file = path.join(os.tmpdir(), `lock-events-${name}-${Date.now()}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    console.log(`CPU profile: ${file}`);
    session.disconnect();
  };
}

/** A plain aedes broker whose only work is to acknowledge each lock's events at once. */
async function bareBroker(fleet: Runner, size: number): Promise<Measured[]> {
  const broker = await Aedes.createBroker({
    // As the embedded broker (embedded-broker.ts): no limit on messages in delivery at once.
    concurrency: BROKER_CONCURRENCY,
    published: (packet, client, done) => {
      const match = client && /^lk\/v1\/([^/]+)\/events$/.exec(packet.topic);
      if (match) {
        const body = JSON.parse(packet.payload.toString()) as { eventId: string } | { eventId: string }[];
        const eventIds = (Array.isArray(body) ? body : [body]).map((event) => event.eventId);
        // Answered after this call returns, as the server's promise-based handler is: finishing
        // inside it nests aedes's queue processing until the stack runs out with thousands of locks.
        queueMicrotask(() =>
          broker.publish(
            {
              cmd: 'publish',
              topic: `lk/v1/${match[1]}/events/ack`,
              payload: JSON.stringify({ eventIds }),
              qos: 1,
              retain: false,
              dup: false,
            },
            () => {},
          ),
        );
      }
      queueMicrotask(() => done());
    },
  });
  const server = net.createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const locks = Array.from({ length: size }, () => ({ deviceId: crypto.randomUUID(), secret: 'bare' }));
    const results: Measured[] = [];
    for (const rate of RATES) {
      results.push(
        await fleet.run(
          {
            url: `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
            locks,
            credentialId: crypto.randomUUID(),
            browser: { kind: 'mqtt' },
            inFlight: IN_FLIGHT,
            rate,
            warmupSeconds: WARMUP_SECONDS,
            seconds: SECONDS,
          },
          `bare-${size}-${rate ?? 'saturated'}`,
        ),
      );
    }
    return results;
  } finally {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The whole server over a fresh database holding a portal of `size` locks and a card holder. */
async function endToEnd(fleet: Runner, size: number): Promise<{ results: Measured[]; dialect: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-bench-events-'));
  const database = await benchDatabase('bench');
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'false',
      MQTT_PORT: '0',
      // The whole fleet connects from this one address.
      MQTT_MAX_CONNECTIONS_PER_IP: String(size + 10),
      MQTT_CONNECT_TIMEOUT_S: '60',
      MAIL_POLL_MS: '0',
      WEB_DIST: path.join(dataDir, 'no-web'),
      ...(database.url && { DATABASE_URL: database.url }),
    }),
  );
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const owner = await createDemoAccount(app.db, {
      email: 'bench@example.com',
      password: 'a sturdy passphrase',
      firstName: 'Bench',
      lastName: 'Owner',
      portalName: 'Bench',
    });
    const portalId = (await findPortalOwnedBy(app.db, owner.id))!.id;
    const context = { portalId, actorUserId: owner.id, ip: '127.0.0.1' };
    const { token } = await issueSessionToken(app.secrets.jwtKey, owner, 1);
    // Events name the owner's card, so each one is attributed to a person as in real use.
    const card = await registerCard(app.db, context, {
      uid: crypto.randomBytes(4).toString('hex'),
      name: 'Bench card',
      userId: owner.id,
      validFrom: null,
      validUntil: null,
    });
    // The locks go straight into the table, in one transaction (10,000 one by one take minutes).
    const locks = Array.from({ length: size }, () => ({
      deviceId: crypto.randomUUID(),
      secret: crypto.randomBytes(32).toString('base64url'),
    }));
    const now = new Date().toISOString();
    await app.db.transaction().execute(async (trx) => {
      for (let start = 0; start < locks.length; start += 500) {
        await trx
          .insertInto('devices')
          .values(
            locks.slice(start, start + 500).map((lock, i) => ({
              id: lock.deviceId,
              portal_id: portalId,
              name: `Door ${start + i}`,
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
    const port = (app.server.address() as net.AddressInfo).port;
    const results: Measured[] = [];
    for (const rate of RATES) {
      results.push(
        await fleet.run(
          {
            url: app.deviceLink.transport.url,
            locks,
            credentialId: card._id,
            browser: { kind: 'websocket', url: `ws://127.0.0.1:${port}/api3/live`, token, portalId },
            inFlight: IN_FLIGHT,
            rate,
            warmupSeconds: WARMUP_SECONDS,
            seconds: SECONDS,
          },
          `end-to-end-${app.dialect}-${size}-${rate ?? 'saturated'}`,
        ),
      );
    }
    return { results, dialect: app.dialect };
  } finally {
    await app.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A latency; IPC carries an event that never arrived (Infinity) as null. */
const ms = (value: number | null) => (value === null || !Number.isFinite(value) ? '∞' : value.toFixed(1));

async function main() {
  const fleet = startFleetProcess();
  const table: Record<string, Record<string, string | number>> = {};
  let dialect = 'sqlite';
  try {
    for (const size of SIZES) {
      const bare = await bareBroker(fleet, size);
      const e2e = await endToEnd(fleet, size);
      dialect = e2e.dialect;
      RATES.forEach((rate, index) => {
        const b = bare[index]!;
        const e = e2e.results[index]!;
        const how = rate === null ? 'saturated' : `at ${rate}/s`;
        const row = (r: Measured) => ({
          'events/s': Math.round(r.ackedPerSecond),
          'CPU ms/1000': r.cpuMsPerThousand.toFixed(0),
          'p50 ms': ms(r.p50),
          'p99 ms': ms(r.p99),
          'held back': r.heldBack,
          missing: r.missing,
        });
        table[`${size} locks ${how}: bare broker`] = row(b);
        table[`${size} locks ${how}: end to end`] = {
          ...row(e),
          'vs bare': `${((e.ackedPerSecond / b.ackedPerSecond) * 100).toFixed(0)} %`,
          'CPU vs bare': `${(e.cpuMsPerThousand / b.cpuMsPerThousand).toFixed(1)}×`,
        };
        for (const [what, r] of [
          ['bare broker', b],
          ['end to end', e],
        ] as const) {
          if (r.browserClosed)
            console.log(
              `${size} locks ${how}, ${what}: the browser's socket was closed (${r.browserClosed})`,
            );
        }
        console.log(
          `${size} locks ${how}: bare ${Math.round(b.ackedPerSecond)}/s p99 ${ms(b.p99)} ms; ` +
            `end to end ${Math.round(e.ackedPerSecond)}/s (${((e.ackedPerSecond / b.ackedPerSecond) * 100).toFixed(0)} % of bare) p99 ${ms(e.p99)} ms`,
        );
      });
    }
  } finally {
    // Disconnecting lets the fleet exit by itself (and write its profile).
    fleet.child.disconnect();
  }
  console.log(
    `\nLock events (${dialect}): ${IN_FLIGHT} in flight per lock; ${SECONDS} s measured after ${WARMUP_SECONDS} s; ` +
      `"held back": events a lock could not send with ${IN_FLIGHT} already awaiting their ack; ` +
      `"CPU ms/1000": this process's CPU time (broker, or broker and server) per 1,000 events acknowledged`,
  );
  console.table(table);
}

await main();

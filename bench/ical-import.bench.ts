/**
 * npm run bench:ical: a 5,000-event iCal feed imported while other requests run (issue 16, defect
 * 2). The whole server (buildApp, as `npm start` runs it) runs in a child process with a portal of
 * ICAL_BENCH_PEOPLE people (a tenth as many locks) and a listing on two fresh simulated locks; this
 * process serves the feed from a loopback HTTP server (the server runs with ICAL_ALLOW_PRIVATE_HOSTS),
 * presses "sync now" over HTTP and, until the feed's read has ended, keeps ICAL_BENCH_CONNECTIONS
 * loops of `GET portal/devices` (a page of 25 locks) going over real HTTP, recording each latency.
 * The same loops run for ICAL_BENCH_IDLE_SECONDS before, with no import, for comparison. Prints
 * p50 / p95 / p99 of both and the import's total time. Target: p99 under 100 ms during the import.
 *
 * The feed: ICAL_BENCH_EVENTS events (default 5,000, the most a feed may carry), two fifths
 * reservations of two nights (each lock holds 1,000 entries: 500 guests; the rest are kept as
 * requests for the owner, as the import does when a lock is full) and three fifths nights marked
 * not available, all within the import's two-year horizon.
 *
 *   BENCH_DATABASE_URL=postgres://…   PostgreSQL instead of SQLite (a fresh database, dropped after)
 *   ICAL_BENCH_PROFILE=1              the server writes a CPU profile to ./profiles
 *
 * Not a test: it prints figures; docs/benchmarks.md records runs.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { addDaysToDate, type IcalFeed } from '@latchkey/shared';
import { benchDatabase } from './bench-database';

const EVENTS = Number(process.env.ICAL_BENCH_EVENTS ?? 5000);
const PEOPLE = Number(process.env.ICAL_BENCH_PEOPLE ?? 2000);
const CONNECTIONS = Number(process.env.ICAL_BENCH_CONNECTIONS ?? 4);
const IDLE_SECONDS = Number(process.env.ICAL_BENCH_IDLE_SECONDS ?? 5);

interface Ready {
  url: string;
  token: string;
  listingId: string;
  dialect: string;
}

// ---------------------------------------------------------------------------------------------
// The server process.

async function serve() {
  const { buildApp } = await import('../apps/server/src/app');
  const { loadConfig } = await import('../apps/server/src/config');
  const { largePortalSize, seedLargePortal } = await import('../apps/server/src/demo/seed-large');
  const { issueSessionToken } = await import('../apps/server/src/base/identity/sessions');
  const { findUserByEmail } = await import('../apps/server/src/base/identity/users.repository');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-ical-bench-'));
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'false',
      MAIL_POLL_MS: '0',
      MQTT_PORT: '0',
      WEB_DIST: path.join(dataDir, 'no-web'),
      ICAL_SYNC_MINUTES: '0',
      ICAL_ALLOW_PRIVATE_HOSTS: 'true',
      ICAL_FETCH_TIMEOUT_MS: '60000',
      ICAL_MAX_BYTES: '20000000',
      // The bench portal is on the Free plan; its two listing locks are added on top of the seeded ones.
      PLAN_LOCK_LIMITS: 'false',
      ...(process.env.DATABASE_URL && { DATABASE_URL: process.env.DATABASE_URL }),
    }),
  );
  const { ownerEmail } = await seedLargePortal(app.db, largePortalSize(PEOPLE));
  const owner = (await findUserByEmail(app.db, ownerEmail))!;
  const { token } = await issueSessionToken(app.secrets.jwtKey, owner, 24);
  const call = async (url: string, payload: object) => {
    const response = await app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}` },
      payload,
    });
    if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const locks: string[] = [];
  for (const name of ['Bench flat door', 'Bench building door']) {
    locks.push(
      (await call('/api3/portal/device/new', { name, model: 'latchkey-sim', timeZone: 'Europe/Lisbon' }))
        .device._id,
    );
  }
  const listing = await call('/api3/listing/new', {
    title: 'Bench flat',
    deviceIds: locks,
    published: true,
    address: '1 Bench Street',
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const ready: Ready = { url, token, listingId: listing._id, dialect: app.dialect };
  process.send!(ready);
  process.on('message', (message) => {
    if (message === 'stop')
      void app.close().then(() => {
        fs.rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
  });
}

// ---------------------------------------------------------------------------------------------
// The measuring process.

function feedOf(events: number): string {
  const today = new Date().toISOString().slice(0, 10);
  const date = (offset: number) => addDaysToDate(today, offset).replace(/-/g, '');
  const lines = ['BEGIN:VCALENDAR', 'PRODID:-//Bench//Calendar//EN', 'VERSION:2.0'];
  const reservations = Math.round(events * 0.4);
  for (let i = 0; i < events; i++) {
    const reservation = i < reservations;
    const start = 2 + (i % 700);
    lines.push(
      'BEGIN:VEVENT',
      `DTSTART;VALUE=DATE:${date(start)}`,
      `DTEND;VALUE=DATE:${date(start + (reservation ? 2 : 1))}`,
      `UID:bench-${i}@example.com`,
      `SUMMARY:${reservation ? `Reserved - Guest ${i}` : 'Airbnb (Not available)'}`,
      ...(reservation ? [`DESCRIPTION:Reservation ${i}\\nPhone (last 4): ${1000 + (i % 9000)}`] : []),
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.join('\r\n')}\r\n`;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const figures = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    n: sorted.length,
    text: [50, 95, 99].map((p) => percentile(sorted, p).toFixed(1)).join(' / '),
    max: (sorted.at(-1) ?? NaN).toFixed(1),
  };
};

/** `connections` loops of GET portal/devices until `until()` says stop; each latency kept. */
async function load(ready: Ready, connections: number, until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const started = performance.now();
      http
        .get(
          `${ready.url}/api3/portal/devices?limit=25&sortBy=name`,
          { agent, headers: { authorization: `Bearer ${ready.token}` } },
          (response) => {
            response.resume();
            response.on('end', () => {
              if (response.statusCode !== 200)
                reject(new Error(`GET portal/devices: ${response.statusCode}`));
              latencies.push(performance.now() - started);
              resolve();
            });
          },
        )
        .on('error', reject);
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (!until()) await one();
    }),
  );
  agent.destroy();
  return latencies;
}

async function api(ready: Ready, method: string, url: string, body?: object) {
  const response = await fetch(`${ready.url}/api3/${url}`, {
    method,
    headers: { authorization: `Bearer ${ready.token}`, 'content-type': 'application/json' },
    ...(body && { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as unknown };
}

async function measure() {
  const body = feedOf(EVENTS);
  const feedServer = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' });
    response.end(body);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
  const feedUrl = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/bench.ics`;

  const database = await benchDatabase('ical_bench');
  const profile = process.env.ICAL_BENCH_PROFILE === '1';
  const server = fork(fileURLToPath(import.meta.url), ['--server'], {
    execArgv: ['--import', 'tsx', ...(profile ? ['--cpu-prof', '--cpu-prof-dir=profiles'] : [])],
    env: { ...process.env, ...(database.url && { DATABASE_URL: database.url }) },
    stdio: 'inherit',
  });
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      server.once('message', (message) => resolve(message as Ready));
      server.once('exit', (code) => reject(new Error(`the server process exited (${code})`)));
    });
    console.log(`server ready on ${ready.dialect} (${PEOPLE} people, ${Math.round(PEOPLE / 10)} locks)`);

    // Idle: the same requests with no import running (also warms the server).
    const idleUntil = performance.now() + IDLE_SECONDS * 1000;
    const idle = await load(ready, CONNECTIONS, () => performance.now() > idleUntil);

    const created = await api(ready, 'POST', `listing/${ready.listingId}/ical/feed/new`, {
      name: 'Bench',
      url: feedUrl,
    });
    if (created.status !== 201) throw new Error(`adding the feed: ${JSON.stringify(created.json)}`);
    const feedId = (created.json as IcalFeed)._id;
    const started = performance.now();
    const queued = await api(ready, 'POST', `listing/${ready.listingId}/ical/feed/${feedId}/sync`, {});
    const answeredMs = performance.now() - started;
    if (queued.status !== 202) throw new Error(`sync now: ${queued.status} ${JSON.stringify(queued.json)}`);

    let done = false;
    let feed: IcalFeed | undefined;
    let importMs = NaN;
    const watch = (async () => {
      while (!done) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const ical = await api(ready, 'GET', `listing/${ready.listingId}/ical`);
        feed = (ical.json as { feeds: IcalFeed[] }).feeds.find((f) => f._id === feedId);
        if (feed && !feed.syncing) {
          importMs = performance.now() - started;
          done = true;
        }
      }
    })();
    const during = await load(ready, CONNECTIONS, () => done);
    await watch;

    const i = figures(idle);
    const d = figures(during);
    const result = feed?.lastResult;
    console.log(
      [
        '',
        `Run on ${ready.dialect}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; feed of ${EVENTS} events; ${CONNECTIONS} concurrent request loops.`,
        '',
        `"sync now" answered in ${answeredMs.toFixed(1)} ms (202); the import took ${(importMs / 1000).toFixed(1)} s: ` +
          `${result ? `${result.added} stays added, ${result.blocks} blocks` : 'no result'}${feed?.lastError ? `, error: ${feed.lastError}` : ''}.`,
        '',
        '| GET portal/devices | requests | p50 / p95 / p99 ms | max ms |',
        '|---|---|---|---|',
        `| idle (no import) | ${i.n} | ${i.text} | ${i.max} |`,
        `| during the import | ${d.n} | ${d.text} | ${d.max} |`,
        '',
      ].join('\n'),
    );
  } finally {
    if (server.connected) server.send('stop');
    await new Promise((resolve) => server.once('exit', resolve));
    feedServer.close();
    await database.drop();
  }
}

(process.argv.includes('--server') ? serve() : measure()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

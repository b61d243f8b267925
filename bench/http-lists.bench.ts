/**
 * npm run bench:http: an authenticated, portal-scoped paged lock list on the large portal over real
 * HTTP (autocannon, 10 and 50 connections) against a bare Fastify route that answers the same page
 * from the same database in the same server process (bench/http-lists-server.ts), measured in
 * turns in one run. Prints requests per second and latency for both and the ratio; the issue's
 * target is a ratio of at least 0.60 and a p95 under 20 ms. Not a test: docs/benchmarks.md records
 * runs.
 *
 * HTTP_BENCH_PEOPLE (default 50000; locks are a tenth, at most 5,000), HTTP_BENCH_SECONDS per turn
 * (default 10), HTTP_BENCH_TURNS (default 2, alternating bare and full), HTTP_BENCH_CONNECTIONS
 * (default "10,50"), HTTP_BENCH_CASE (only the lists whose name contains it), HTTP_BENCH_PROFILE=1 (the server process writes a CPU profile to ./profiles),
 * BENCH_DATABASE_URL=postgres://… (a fresh database is made and dropped).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { benchDatabase } from './bench-database';

const SECONDS = Number(process.env.HTTP_BENCH_SECONDS ?? 10);
const TURNS = Number(process.env.HTTP_BENCH_TURNS ?? 2);
const CONNECTIONS = (process.env.HTTP_BENCH_CONNECTIONS ?? '10,50').split(',').map(Number);

/** The lists measured: the stack's URL and the bare route's. */
const CASES = [
  {
    name: 'locks, page 1 by name',
    full: '/api3/portal/devices?limit=25&sortBy=name',
    bare: '/devices?limit=25&sortBy=name',
  },
  {
    name: 'locks, search "door 4"',
    full: '/api3/portal/devices?limit=25&sortBy=name&search=door%204',
    bare: '/devices?limit=25&sortBy=name&search=door%204',
  },
];

interface Turn {
  requests: number;
  seconds: number;
  latencies: number[];
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** One autocannon run; every response's latency is kept (autocannon reports no p95 of its own). */
async function load(url: string, connections: number, seconds: number, token?: string): Promise<Turn> {
  const latencies: number[] = [];
  let errors = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, connections, duration: seconds, headers: token ? { authorization: `Bearer ${token}` } : {} },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode !== 200) errors++;
      latencies.push(responseTime);
    });
  });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    latencies,
    errors: errors + result.errors,
  };
}

function summary(turns: Turn[]) {
  const requests = turns.reduce((n, t) => n + t.requests, 0);
  const seconds = turns.reduce((n, t) => n + t.seconds, 0);
  const sorted = turns.flatMap((t) => t.latencies).sort((a, b) => a - b);
  return {
    perSecond: requests / seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    errors: turns.reduce((n, t) => n + t.errors, 0),
  };
}

const ms = (s: { p50: number; p95: number; p99: number }) =>
  [s.p50, s.p95, s.p99].map((v) => v.toFixed(1)).join(' / ');

async function main() {
  const database = await benchDatabase('http_bench');
  const profile = process.env.HTTP_BENCH_PROFILE === '1';
  const server = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      ...(profile
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.HTTP_BENCH_PROFILE_DIR ?? 'profiles'}`]
        : []),
      'bench/http-lists-server.ts',
    ],
    {
      env: { ...process.env, ...(database.url && { DATABASE_URL: database.url }) },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    // The server's own log lines (warnings) share its stdout; its addresses come as one JSON line.
    const first = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: server.stdout! }).on('line', (line) => {
        if (line.startsWith('{"full"')) resolve(line);
        else console.log(`server: ${line}`);
      });
      server.once('exit', (code) => reject(new Error(`the server process exited (${code})`)));
    });
    const { full, bare, token, dialect, people, seconds } = JSON.parse(first) as Record<string, string>;
    console.log(`seeded ${people} people on ${dialect} in ${Number(seconds).toFixed(1)} s`);

    const rows: string[] = [];
    for (const c of CASES.filter((c) => c.name.includes(process.env.HTTP_BENCH_CASE ?? ''))) {
      for (const connections of CONNECTIONS) {
        // Warm both (statement caches, JIT), then alternate turns so drift in the machine's load
        // falls on both alike.
        await load(`${bare}${c.bare}`, connections, 2);
        await load(`${full}${c.full}`, connections, 2, token);
        const bareTurns: Turn[] = [];
        const fullTurns: Turn[] = [];
        for (let turn = 0; turn < TURNS; turn++) {
          bareTurns.push(await load(`${bare}${c.bare}`, connections, SECONDS));
          fullTurns.push(await load(`${full}${c.full}`, connections, SECONDS, token));
        }
        const b = summary(bareTurns);
        const f = summary(fullTurns);
        if (b.errors + f.errors > 0)
          console.warn(`${c.name}: ${b.errors} bare and ${f.errors} full non-200 answers`);
        rows.push(
          `| ${c.name} | ${connections} | ${b.perSecond.toFixed(0)} | ${ms(b)} | ${f.perSecond.toFixed(0)} | ${ms(f)} | ${(f.perSecond / b.perSecond).toFixed(2)} |`,
        );
        console.log(rows.at(-1));
      }
    }
    console.log(
      [
        '',
        `Run on ${dialect}, ${people} people, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; ${TURNS} turns of ${SECONDS} s each.`,
        '',
        '| list | connections | bare req/s | bare p50 / p95 / p99 ms | stack req/s | stack p50 / p95 / p99 ms | stack / bare |',
        '|---|---|---|---|---|---|---|',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * npm run bench: on a large seeded portal (BENCH_PEOPLE people, 50,000 unless told; 5,000 locks,
 * two credentials each), the latency of the paged lock and people lists (sorting, searching through
 * the trigram indexes, keyset pages deep into a list) through the whole API (routing, auth,
 * tenancy, validation, serialisation) as a ratio to the same query run directly on the database,
 * and the time evaluateAccess and whoCanOpen take over a lock with 10,000 entries. Not a test: it
 * prints figures (ratios are what to compare across machines); docs/benchmarks.md records a run.
 * BENCH_DATABASE_URL=postgres://… runs it on PostgreSQL (a fresh database is made and dropped);
 * BENCH_PEOPLE=500000 the large size (seeding takes minutes); BENCH_SECONDS caps each case (10 s).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  encodeListCursor,
  evaluateAccess,
  newBoxKeyPair,
  sealPayload,
  whoCanOpen,
  type CredentialSet,
} from '@latchkey/shared';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { largePortalSize, seedLargePortal } from '../apps/server/src/demo/seed-large';
import { listDevices } from '../apps/server/src/features/devices/devices.repository';
import { listPortalMembers } from '../apps/server/src/base/tenancy/memberships.repository';
import { benchDatabase } from './bench-database';

const RUNS = 200;
/** A case stops after RUNS runs or this many seconds, whichever comes first (broad searches at 500,000). */
const CASE_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 50_000);

function percentiles(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  return { p50: at(50), p95: at(95) };
}

async function time(run: () => Promise<unknown>, runs = RUNS): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 5; i++) await run(); // warm-up
  const samples: number[] = [];
  const deadline = performance.now() + CASE_SECONDS * 1000;
  for (let i = 0; i < runs && (i < 20 || performance.now() < deadline); i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return percentiles(samples);
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-bench-'));
  const database = await benchDatabase('bench');
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO_DATA: 'false',
      WEB_DIST: path.join(dataDir, 'no-web'),
      ...(database.url && { DATABASE_URL: database.url }),
    }),
  );
  try {
    let start = performance.now();
    const { portalId, ownerEmail, password } = await seedLargePortal(app.db, largePortalSize(PEOPLE));
    console.log(
      `seeded ${PEOPLE} people on ${app.dialect} in ${((performance.now() - start) / 1000).toFixed(1)} s`,
    );

    const envelope = sealPayload(
      { email: ownerEmail, password },
      app.secrets.seal.publicKey,
      newBoxKeyPair(),
    );
    const login = await app.inject({ method: 'POST', url: '/api3/auth/secure/login', payload: envelope });
    const token = login.json().token as string;

    // Search terms from a member and a lock in the middle of the lists: a last name and an email
    // piece that name a handful of people, a first-name prefix 1 in 256 people share, one 1 in 16
    // share (every trigram of it common), a lock's serial piece and a name piece 1 in 16 locks share.
    const middle = Math.floor(PEOPLE / 50) * 25;
    const lockCount = largePortalSize(PEOPLE).devices;
    const lockPage = Math.floor(lockCount / 50) * 25;
    const member = (
      await listPortalMembers(
        app.db,
        portalId,
        { skip: middle, limit: 1, sortBy: 'email', descending: false },
        {},
      )
    ).rows[0]!;
    const lock = (
      await listDevices(app.db, portalId, {
        skip: Math.floor(lockCount / 2),
        limit: 1,
        sortBy: 'name',
        descending: false,
      })
    ).rows[0]!;
    const lastName = member.last_name.toLowerCase();
    const emailPiece = member.email.slice(4, 14);
    const firstPrefix = member.first_name.slice(0, 7).toLowerCase();
    const serialPiece = (lock.serial ?? '').slice(3, 9).toLowerCase();
    // Keyset: the page after the middle member by email, and after the middle lock by battery.
    const memberCursor = (
      await listPortalMembers(
        app.db,
        portalId,
        { skip: middle - 1, limit: 1, sortBy: 'email', descending: false },
        {},
      )
    ).next!;
    const lockCursor = (
      await listDevices(app.db, portalId, {
        skip: lockPage - 1,
        limit: 1,
        sortBy: 'battery',
        descending: true,
      })
    ).next!;
    const people = (search: string, sortBy: 'lastName' | 'email' = 'lastName') => ({
      url: `/api3/portal/users?search=${encodeURIComponent(search)}&sortBy=${sortBy}&limit=25`,
      direct: () =>
        listPortalMembers(app.db, portalId, { skip: 0, limit: 25, search, sortBy, descending: false }, {}),
    });
    const locks = (search: string) => ({
      url: `/api3/portal/devices?search=${encodeURIComponent(search)}&sortBy=name&limit=25`,
      direct: () =>
        listDevices(app.db, portalId, { skip: 0, limit: 25, search, sortBy: 'name', descending: false }),
    });
    const cases = [
      { name: `locks: search "door 4" (1 in 16), sort by name`, ...locks('door 4') },
      { name: `locks: search a serial piece "${serialPiece}"`, ...locks(serialPiece) },
      {
        name: `locks: sort by battery, page ${lockPage / 25 + 1} (skip)`,
        url: `/api3/portal/devices?sortBy=battery&descending=true&skip=${lockPage}&limit=25`,
        direct: () =>
          listDevices(app.db, portalId, { skip: lockPage, limit: 25, sortBy: 'battery', descending: true }),
      },
      {
        name: `locks: sort by battery, page ${lockPage / 25 + 1} (after)`,
        url: `/api3/portal/devices?sortBy=battery&descending=true&limit=25&after=${encodeListCursor(lockCursor)}`,
        direct: () =>
          listDevices(app.db, portalId, {
            skip: 0,
            limit: 25,
            sortBy: 'battery',
            descending: true,
            after: lockCursor,
          }),
      },
      { name: `people: search a last name "${lastName}"`, ...people(lastName) },
      { name: `people: search an email piece "${emailPiece}"`, ...people(emailPiece, 'email') },
      { name: `people: search "${firstPrefix}" (1 in 256)`, ...people(firstPrefix) },
      { name: 'people: search "first1" (1 in 16)', ...people('first1') },
      {
        name: `people: sort by email, page ${middle / 25 + 1} (skip)`,
        url: `/api3/portal/users?sortBy=email&skip=${middle}&limit=25`,
        direct: () =>
          listPortalMembers(
            app.db,
            portalId,
            { skip: middle, limit: 25, sortBy: 'email', descending: false },
            {},
          ),
      },
      {
        name: `people: sort by email, page ${middle / 25 + 1} (after)`,
        url: `/api3/portal/users?sortBy=email&limit=25&after=${encodeListCursor(memberCursor)}`,
        direct: () =>
          listPortalMembers(
            app.db,
            portalId,
            { skip: 0, limit: 25, sortBy: 'email', descending: false, after: memberCursor },
            {},
          ),
      },
    ];

    const rows: string[] = [];
    for (const c of cases) {
      const check = await app.inject({
        method: 'GET',
        url: c.url,
        headers: { authorization: `Bearer ${token}` },
      });
      if (check.statusCode !== 200) throw new Error(`${c.url} answered ${check.statusCode}: ${check.body}`);
      const api = await time(() =>
        app.inject({ method: 'GET', url: c.url, headers: { authorization: `Bearer ${token}` } }),
      );
      const direct = await time(c.direct);
      rows.push(
        `| ${c.name} | ${api.p50.toFixed(2)} / ${api.p95.toFixed(2)} | ${direct.p50.toFixed(2)} / ${direct.p95.toFixed(2)} | ${(api.p50 / direct.p50).toFixed(2)} / ${(api.p95 / direct.p95).toFixed(2)} |`,
      );
    }

    // A lock with 10,000 entries: codes with weekday schedules, some suspended, a lockout.
    const set: CredentialSet = {
      deviceId: 'bench-lock',
      version: 1,
      timeZone: 'Europe/Berlin',
      entries: Array.from({ length: 10_000 }, (_, i) => ({
        credentialId: `c${i}`,
        kind: 'code' as const,
        secret: String(10_000_000 + i),
        userId: `u${i}`,
        holderType: 'person' as const,
        userRole: i % 50 === 0 ? ('admin' as const) : ('user' as const),
        userStatus: i % 97 === 0 ? ('suspended' as const) : ('active' as const),
        schedule: i % 3 === 0 ? null : { windows: [{ days: [1, 2, 3, 4, 5], start: '07:00', end: '19:00' }] },
        validFrom: null,
        validUntil: null,
      })),
      lockouts: [{ lockoutId: 'l1', from: '2027-01-01T00:00:00Z', until: null, exemptAdmins: true }],
    };
    const instant = new Date('2026-11-25T10:00:00Z');
    start = performance.now();
    const evaluations = 2_000;
    for (let i = 0; i < evaluations; i++)
      evaluateAccess(set, { kind: 'code', secret: String(10_000_000 + ((i * 7919) % 10_000)) }, instant);
    const perEvaluation = (performance.now() - start) / evaluations;
    const who = await time(async () => whoCanOpen(set, instant), 50);

    const report = [
      `Run on ${app.dialect} with ${PEOPLE} people, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.`,
      '',
      '| paged list (25 rows) | API p50 / p95 ms | database p50 / p95 ms | ratio p50 / p95 |',
      '|---|---|---|---|',
      ...rows,
      '',
      `evaluateAccess over a lock with 10,000 entries: ${(perEvaluation * 1000).toFixed(0)} µs per decision (${evaluations} decisions).`,
      `whoCanOpen over the same lock: p50 ${who.p50.toFixed(1)} ms, p95 ${who.p95.toFixed(1)} ms.`,
    ].join('\n');
    console.log(`\n${report}\n`);
  } finally {
    await app.close();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

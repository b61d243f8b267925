import { formatCalendarRange, SEARCH_RESULTS_PER_KIND, type SearchAnswer } from '@latchkey/shared';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../src/db/search';
import { searchStatements } from '../src/features/search/search.service';
import { closedBillFor } from './billing-helpers';
import { makeMember } from './factories';
import { makeTwoPortals, type TwoPortals } from './fixtures';
import { TestApp } from './test-app';

// GET portal/search (issue 19, item 7): what it finds, never across portals, what it refuses, and
// that each of its statements reads through an index (the plan of each, on the database in use).

let t: TestApp;
let portals: TwoPortals;
let billA: string;
let billB: string;

beforeAll(async () => {
  t = await TestApp.start();
  portals = await makeTwoPortals(t);
  billA = await closedBillFor(t, portals.a.portalId);
  billB = await closedBillFor(t, portals.b.portalId);
  // The same person's address in both portals' shape: portal B's must never show in portal A.
  await makeMember(t, portals.a.portalId, { email: 'zelda.quartzite@example.com', firstName: 'Zelda' });
  await makeMember(t, portals.b.portalId, { email: 'zora.quartzite@example.com', firstName: 'Zora' });
}, 60_000);
afterAll(() => t.close());

async function search(q: string, token = portals.a.admin) {
  const response = await t.request({ method: 'GET', url: '/api3/portal/search', query: { q }, token });
  return response;
}
async function found(q: string): Promise<SearchAnswer['results']> {
  const response = await search(q);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as SearchAnswer).results;
}

describe('GET portal/search', () => {
  it('finds a person by part of their email, and never another portal’s', async () => {
    const results = await found('a.quartz');
    expect(results).toEqual([
      expect.objectContaining({ kind: 'person', title: 'Zelda', detail: 'zelda.quartzite@example.com' }),
    ]);
    const both = await found('quartzite');
    expect(both.map((r) => r.detail)).toEqual(['zelda.quartzite@example.com']);
  });

  it('finds a lock by its name, case aside; portal B’s lock of the same name stays out', async () => {
    const results = await found('FRONT d');
    const locks = results.filter((r) => r.kind === 'lock');
    expect(locks.map((r) => r._id)).toEqual([portals.a.deviceId]);
  });

  it('finds a card by the start of its UID, typed with separators', async () => {
    const uid = portals.a.rfidUid;
    const typed = `${uid.slice(0, 2).toLowerCase()}:${uid.slice(2, 6)}`;
    const cards = (await found(typed)).filter((r) => r.kind === 'card');
    expect(cards).toEqual([
      expect.objectContaining({ _id: portals.a.rfidId, ref: portals.a.userId, title: `Card ${uid}` }),
    ]);
  });

  it('finds listings, stays by guest name and bills by number, each of this portal only', async () => {
    const listing = (await found('private fl')).filter((r) => r.kind === 'listing');
    expect(listing.map((r) => r._id)).toEqual([portals.a.listingId]);
    const stays = (await found('past guest')).filter((r) => r.kind === 'stay');
    expect(stays).toHaveLength(1);
    expect(stays[0]!.ref).toBe(portals.a.listingId);
    // Its dates and state in the words of the stay's page: "Nov 25, 2026 – Nov 27, 2026 · Approved".
    const stay = await t.app.db
      .selectFrom('stays')
      .select(['start_date', 'end_date'])
      .where('id', '=', stays[0]!._id)
      .executeTakeFirstOrThrow();
    expect(stays[0]!.detail).toContain(
      ` · ${formatCalendarRange(stay.start_date, stay.end_date)} · Approved`,
    );
    expect(stays[0]!.detail).toMatch(
      / · [A-Z][a-z]{2} \d{1,2}, \d{4} – [A-Z][a-z]{2} \d{1,2}, \d{4} · Approved$/,
    );
    const bill = await t.app.db
      .selectFrom('bills')
      .select('invoice_number')
      .where('id', '=', billA)
      .executeTakeFirstOrThrow();
    const bills = (await found(bill.invoice_number!)).filter((r) => r.kind === 'bill');
    expect(bills).toEqual([
      expect.objectContaining({ _id: billA, ref: '2025-09', detail: 'Bill for September 2025' }),
    ]);
  });

  it('answers nothing of portal B whatever it is asked', async () => {
    const foreign = new Set(
      [
        portals.b.userId,
        portals.b.deviceId,
        portals.b.rfidId,
        portals.b.listingId,
        portals.b.stayId,
        billB,
      ].filter(Boolean),
    );
    for (const q of [
      'front',
      'example.com',
      'private',
      'guest',
      'zora',
      portals.b.rfidUid.slice(0, 6),
      'LK-',
    ]) {
      const results = await found(q);
      expect(
        results.filter((r) => foreign.has(r._id)),
        q,
      ).toEqual([]);
      expect(
        results.every((r) => !r.detail.includes('zora')),
        q,
      ).toBe(true);
    }
  });

  it('keeps to a few results of each kind', async () => {
    for (let i = 0; i < SEARCH_RESULTS_PER_KIND + 2; i++) {
      await makeMember(t, portals.a.portalId, { email: `manyfold-${i}@example.com` });
    }
    const people = (await found('manyfold')).filter((r) => r.kind === 'person');
    expect(people).toHaveLength(SEARCH_RESULTS_PER_KIND);
  });

  it('takes LIKE wildcards literally', async () => {
    expect(await found('%%%')).toEqual([]);
    expect(await found('___')).toEqual([]);
  });

  it('refuses a query too short, too long, missing or with control characters (400)', async () => {
    for (const q of ['ab', '  a  ', 'x'.repeat(101), 'abc\u0007', 'a\nbc']) {
      const response = await search(q);
      expect(response.statusCode, JSON.stringify(q)).toBe(400);
      expect(response.json().error.code).toBe('bad_request');
    }
    const missing = await t.request({ method: 'GET', url: '/api3/portal/search', token: portals.a.admin });
    expect(missing.statusCode).toBe(400);
  });

  it('is for admins: a basic user gets 403', async () => {
    expect((await search('front', portals.a.user)).statusCode).toBe(403);
  });

  it('reads every kind through an index, never the whole table', async () => {
    const db = t.app.db;
    // A term long enough for the trigram indexes, and one that looks like a card UID.
    for (const q of ['quartzite', 'A1B2C3']) {
      const statements = await searchStatements(db, portals.a.portalId, q);
      for (const [kind, statement] of Object.entries(statements)) {
        const compiled = statement.compile();
        if (isPostgres(db)) {
          // Not the plan the planner picks for a tiny table (a sequential scan is cheapest there)
          // but whether one exists without a full scan: with sequential scans priced out, a scan
          // left in the plan means no index can serve the statement.
          await db.executeQuery(CompiledQuery.raw('set enable_seqscan = off'));
          const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
          );
          await db.executeQuery(CompiledQuery.raw('reset enable_seqscan'));
          const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
          expect(plan, `${kind}: ${plan}`).not.toMatch(/Seq Scan/);
        } else {
          const { rows } = await db.executeQuery<{ detail: string }>(
            CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
          );
          const plan = rows.map((row) => row.detail);
          // SQLite says SCAN for reading a whole table (or a whole index); a virtual table's
          // SCAN is the FTS5 trigram index answering MATCH.
          if (process.env.SHOW_PLANS) console.log(kind, plan.join(' | '));
          const scans = plan.filter((line) => /^SCAN /.test(line) && !/VIRTUAL TABLE/.test(line));
          expect(scans, `${kind}: ${plan.join(' | ')}`).toEqual([]);
        }
      }
    }
  });
});

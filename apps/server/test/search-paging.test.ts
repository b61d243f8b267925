import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsText } from '../src/db/like';
import { memberNameColumn } from '../src/base/tenancy/memberships.repository';
import { TestApp } from './test-app';

// Guards for issue 11's search indexes and keyset paging, through the real app on SQLite (FTS5
// trigram) and PostgreSQL (pg_trgm): a search answers exactly the people and locks the plain scan
// (`containsText` over the joined tables, what the lists did before the indexes) answers, after
// inserts, renames, label changes and removals that only the triggers carry to the indexes; and
// keyset pages (`after`) give the same rows as `skip` pages.

/** A fixed-seed generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(11);
const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
/** Letters of both cases, digits, LIKE's wildcards and escape, quotes, and letters beyond ASCII. */
const ALPHABET = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 %_\\"\'-.@éÉßİıøØü中文😀',
];
const word = (min: number, max: number) =>
  Array.from({ length: min + Math.floor(next() * (max - min + 1)) }, () => pick(ALPHABET)).join('');
/** A name part: random text, often around a word many people share (every trigram of it common). */
const namePart = () => (next() < 0.45 ? `${word(0, 2)}Common${word(0, 3)}` : word(1, 9));

let t: TestApp;
let admin: { token: string; portalId: string; userId: string };
let otherPortal: string;
const PEOPLE = 1_400; // above the index's first probe limit (1,000 rows, db/search.ts)

beforeAll(async () => {
  t = await TestApp.start();
  admin = await t.signUp({ firstName: 'Ada', lastName: 'Admin' });
  otherPortal = (await t.signUp()).portalId;
  const now = new Date().toISOString();
  const users = Array.from({ length: PEOPLE }, (_, i) => ({
    id: crypto.randomUUID(),
    email: `${word(1, 6)}${i}@${pick(['example.com', 'Common.org', 'mail.test'])}`.toLowerCase(),
    password_hash: 'x',
    first_name: namePart(),
    last_name: namePart(),
    platform_role: null,
    status: 'active',
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < users.length; i += 200)
    await t.app.db
      .insertInto('users')
      .values(users.slice(i, i + 200))
      .execute();
  const memberships = users.flatMap((user, i) => [
    {
      portal_id: admin.portalId,
      user_id: user.id,
      role: i % 7 === 0 ? ('admin' as const) : ('user' as const),
      status: i % 11 === 0 ? ('suspended' as const) : ('active' as const),
      // The portal's own label for some: what it shows and searches instead of the account's name.
      first_name: i % 5 === 0 ? namePart() : null,
      last_name: i % 5 === 0 ? namePart() : null,
      created_at: new Date(Date.parse(now) - (i % 97) * 1000).toISOString(),
      updated_at: now,
    },
    // Half of them are in another portal too, which no search of this portal may answer.
    ...(i % 2 === 0
      ? [
          {
            portal_id: otherPortal,
            user_id: user.id,
            role: 'user' as const,
            status: 'active' as const,
            created_at: now,
            updated_at: now,
          },
        ]
      : []),
  ]);
  for (let i = 0; i < memberships.length; i += 200) {
    await t.app.db
      .insertInto('memberships')
      .values(memberships.slice(i, i + 200))
      .execute();
  }
  // Changes only the triggers carry to the directory and its indexes.
  for (const user of users.slice(0, 60)) {
    await t.app.db
      .updateTable('users')
      .set({
        first_name: namePart(),
        email: `renamed-${word(2, 5)}-${user.id.slice(0, 6)}@example.com`.toLowerCase(),
      })
      .where('id', '=', user.id)
      .execute();
  }
  for (const user of users.slice(60, 120)) {
    await t.app.db
      .updateTable('memberships')
      .set({ first_name: next() < 0.5 ? null : namePart(), last_name: namePart() })
      .where('portal_id', '=', admin.portalId)
      .where('user_id', '=', user.id)
      .execute();
  }
  for (const user of users.slice(150, 200)) {
    await t.app.db
      .updateTable('memberships')
      .set({
        role: pick(['admin', 'user'] as const),
        status: pick(['active', 'invited', 'suspended'] as const),
      })
      .where('portal_id', '=', admin.portalId)
      .where('user_id', '=', user.id)
      .execute();
  }
  await t.app.db
    .deleteFrom('memberships')
    .where('portal_id', '=', admin.portalId)
    .where(
      'user_id',
      'in',
      users.slice(120, 140).map((u) => u.id),
    )
    .execute();
  await t.app.db
    .deleteFrom('users')
    .where(
      'id',
      'in',
      users.slice(140, 150).map((u) => u.id),
    )
    .execute();

  // A third portal of 10,500 people all named around "Common": every trigram of "common" is then
  // in more rows than the index's last probe reads (db/search.ts), so searching it takes the
  // phrase path; none of them may show in the first portal's answers.
  const crowdPortal = (await t.signUp()).portalId;
  const crowd = Array.from({ length: 10_500 }, (_, i) => ({
    id: crypto.randomUUID(),
    email: `crowd-${i}@common.example`,
    password_hash: 'x',
    first_name: `Common${i}`,
    last_name: 'Crowd',
    platform_role: null,
    status: 'active',
    created_at: now,
    updated_at: now,
  }));
  for (let i = 0; i < crowd.length; i += 500) {
    await t.app.db
      .insertInto('users')
      .values(crowd.slice(i, i + 500))
      .execute();
    await t.app.db
      .insertInto('memberships')
      .values(
        crowd.slice(i, i + 500).map((user) => ({
          portal_id: crowdPortal,
          user_id: user.id,
          role: 'user' as const,
          status: 'active' as const,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }

  const devices = Array.from({ length: 300 }, (_, i) => ({
    id: crypto.randomUUID(),
    portal_id: i % 3 === 0 ? otherPortal : admin.portalId,
    name: `${pick(['Door', 'Gate', 'Common room'])} ${word(1, 6)}`,
    model: pick(['latchkey-sim', 'generic-smartlock', 'generic-codelock'] as const),
    serial: next() < 0.2 ? null : `SN-${word(3, 8)}`,
    time_zone: pick(['UTC', 'Europe/Berlin']),
    secret_hash: 'x',
    // Many shared values and some never reported: ties and nulls for the keyset pages.
    battery: next() < 0.2 ? null : Math.floor(next() * 5) * 20,
    last_seen_at:
      next() < 0.3 ? null : new Date(Date.parse(now) - Math.floor(next() * 4) * 60_000).toISOString(),
    created_at: now,
    updated_at: now,
    deleted_at: i % 17 === 0 ? now : null,
  }));
  await t.app.db.insertInto('devices').values(devices).execute();
  for (const device of devices.slice(0, 30)) {
    await t.app.db
      .updateTable('devices')
      .set({ name: `Renamed ${word(2, 6)}` })
      .where('id', '=', device.id)
      .execute();
  }
  await t.app.db
    .deleteFrom('devices')
    .where(
      'id',
      'in',
      devices.slice(30, 40).map((d) => d.id),
    )
    .execute();
}, 120_000);

afterAll(() => t.close());

const get = (url: string) => t.request({ method: 'GET', url: `/api3/${url}`, token: admin.token });

/** Every page of a list, by `skip` or by the `next` cursors; answers the ids and the totals seen. */
async function readAll(path: string, params: Record<string, string>, by: 'skip' | 'after', limit = 37) {
  const ids: string[] = [];
  const totals = new Set<number>();
  let after: string | undefined;
  for (let page = 0; page < 500; page++) {
    const query = new URLSearchParams({
      ...params,
      limit: String(limit),
      ...(by === 'skip' ? { skip: String(page * limit) } : after ? { after } : {}),
    });
    const response = await get(`${path}?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ items: { _id: string }[]; total: number; next?: string }>();
    ids.push(...body.items.map((item) => item._id));
    totals.add(body.total);
    if (by === 'skip' ? body.items.length < limit : !body.next) break;
    after = body.next;
  }
  return { ids, totals: [...totals] };
}

/** The plain scan the people list searched with before the indexes: the joined tables, LIKE. */
async function scanPeople(term: string) {
  const rows = await t.app.db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.id')
    .where('m.portal_id', '=', admin.portalId)
    .where((eb) =>
      eb.or(
        ['u.email', memberNameColumn('first_name'), memberNameColumn('last_name')].map((c) =>
          containsText(c as never, term),
        ),
      ),
    )
    .execute();
  return rows.map((r) => r.id).sort();
}

async function scanLocks(term: string) {
  const rows = await t.app.db
    .selectFrom('devices')
    .select('id')
    .where('portal_id', '=', admin.portalId)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([containsText('name', term), containsText('serial', term)]))
    .execute();
  return rows.map((r) => r.id).sort();
}

/** Search terms: pieces of stored names and emails in other cases, random text, short and common ones. */
async function searchTerms(count: number) {
  const shown = await t.app.db
    .selectFrom('member_directory')
    .select(['email', 'first_name', 'last_name'])
    .where('portal_id', '=', admin.portalId)
    .execute();
  const terms = [
    'Common',
    'COMMON',
    'ommo',
    'mmon',
    '%',
    '_',
    '\\',
    '"',
    "'",
    '%_',
    'a%b',
    'É',
    'é',
    'İ',
    'ß',
    'ss',
    '😀',
    'co',
    'c',
    '@',
    '.com',
    'renamed-',
  ];
  while (terms.length < count) {
    const source = pick(shown);
    const text = [...pick([source.email, source.first_name, source.last_name])];
    const start = Math.floor(next() * text.length);
    let term = text.slice(start, start + 1 + Math.floor(next() * 6)).join('');
    if (next() < 0.3) term = term.toUpperCase();
    if (next() < 0.15) term = word(1, 4);
    if (term.trim() === term && term.length > 0) terms.push(term);
  }
  return terms;
}

describe('people search through the trigram index', () => {
  it('answers exactly the members the plain scan does, whatever the term', async () => {
    for (const term of await searchTerms(90)) {
      const expected = await scanPeople(term);
      const { ids, totals } = await readAll('portal/users', { search: term }, 'after', 200);
      expect([...ids].sort(), `search ${JSON.stringify(term)}`).toEqual(expected);
      expect(totals, `total for ${JSON.stringify(term)}`).toEqual([expected.length]);
    }
  }, 120_000);

  it('the people picker answers from the same index', async () => {
    for (const term of ['Common', 'mmo', 'É', '%', 'co']) {
      const response = await get(`portal/scopedUsers?search=${encodeURIComponent(term)}&limit=50`);
      expect(response.statusCode, response.body).toBe(200);
      const expected = new Set(await scanPeople(term));
      const found = response.json<{ _id: string }[]>();
      for (const item of found) expect(expected.has(item._id)).toBe(true);
      expect(found.length).toBe(Math.min(50, expected.size));
    }
  });
});

describe('member totals kept by triggers', () => {
  it('equal a count of the memberships, for every role and status filter', async () => {
    for (const [filterBy, values] of [
      ['role', ['admin', 'user']],
      ['status', ['active', 'invited', 'suspended']],
    ] as const) {
      for (const value of values) {
        const response = await get(`portal/users?limit=1&filterBy=${filterBy}&filterValue=${value}`);
        const counted = await t.app.db
          .selectFrom('memberships')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('portal_id', '=', admin.portalId)
          .where(filterBy, '=', value)
          .executeTakeFirstOrThrow();
        expect(response.json().total, `${filterBy}=${value}`).toBe(Number(counted.n));
      }
    }
    // Both portals' kept counts, row by row (the other portal's list is its own admin's).
    for (const portal of [admin.portalId, otherPortal]) {
      const kept = await t.app.db
        .selectFrom('member_counts')
        .select(['role', 'status', 'members'])
        .where('portal_id', '=', portal)
        .where('members', '<>', 0)
        .orderBy('role')
        .orderBy('status')
        .execute();
      const counted = await t.app.db
        .selectFrom('memberships')
        .select(['role', 'status', (eb) => eb.fn.countAll().as('members')])
        .where('portal_id', '=', portal)
        .groupBy(['role', 'status'])
        .orderBy('role')
        .orderBy('status')
        .execute();
      expect(kept.map((k) => ({ ...k, members: Number(k.members) }))).toEqual(
        counted.map((c) => ({ ...c, members: Number(c.members) })),
      );
    }
  });
});

describe('lock search through the trigram index', () => {
  it('answers exactly the locks the plain scan does', async () => {
    const names = await t.app.db
      .selectFrom('devices')
      .select(['name', 'serial'])
      .where('portal_id', '=', admin.portalId)
      .execute();
    const terms = ['Door', 'door', 'oor', 'COMMON ROOM', 'sn-', 'Renamed', '%', '_', 'É', 'do'];
    for (let i = 0; i < 40; i++) {
      const source = pick(names);
      const text = [...(next() < 0.5 ? source.name : (source.serial ?? source.name))];
      const start = Math.floor(next() * text.length);
      const term = text.slice(start, start + 2 + Math.floor(next() * 5)).join('');
      if (term.trim() === term && term) terms.push(next() < 0.3 ? term.toLowerCase() : term);
    }
    for (const term of terms) {
      const expected = await scanLocks(term);
      const { ids, totals } = await readAll('portal/devices', { search: term }, 'skip', 200);
      expect([...ids].sort(), `search ${JSON.stringify(term)}`).toEqual(expected);
      expect(totals).toEqual([expected.length]);
    }
  });
});

describe('keyset paging', () => {
  it('gives the people list the same rows as skip paging, in every order, filter and search', async () => {
    for (const sortBy of ['email', 'firstName', 'lastName', 'role', 'status', 'joinedAt']) {
      for (const descending of ['false', 'true']) {
        for (const extra of [{}, { search: 'Common' }, { filterBy: 'role', filterValue: 'admin' }] as Record<
          string,
          string
        >[]) {
          const params: Record<string, string> = { sortBy, descending, ...extra };
          const bySkip = await readAll('portal/users', params, 'skip', 150);
          const byCursor = await readAll('portal/users', params, 'after', 150);
          expect(byCursor.ids, JSON.stringify(params)).toEqual(bySkip.ids);
          expect(new Set(byCursor.ids).size).toBe(byCursor.ids.length);
        }
      }
    }
  }, 120_000);

  it('gives the lock list the same rows as skip paging, never-reported locks included', async () => {
    for (const sortBy of ['name', 'model', 'timeZone', 'battery', 'lastSeenAt', 'createdAt']) {
      for (const descending of ['false', 'true']) {
        for (const extra of [{}, { search: 'oor' }, { filterBy: 'online', filterValue: 'false' }] as Record<
          string,
          string
        >[]) {
          const params: Record<string, string> = { sortBy, descending, ...extra };
          const bySkip = await readAll('portal/devices', params, 'skip', 9);
          const byCursor = await readAll('portal/devices', params, 'after', 9);
          expect(byCursor.ids, JSON.stringify(params)).toEqual(bySkip.ids);
          expect(byCursor.ids.length).toBe(bySkip.totals[0]);
        }
      }
    }
  }, 120_000);

  it('refuses a cursor it did not make, or one made for another order, with a 400', async () => {
    const first = (await get('portal/devices?sortBy=battery&limit=5')).json<{ next: string }>();
    expect(first.next).toEqual(expect.any(String));
    const forged = (value: unknown[]) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const [sortBy, after] of [
      ['battery', 'not-a-cursor'],
      ['battery', forged(['battery', false, 'ten', 'x'])], // text where the list sorts by a number
      ['battery', forged(['battery', false, 2 ** 40, 'x'])],
      ['lastSeenAt', forged(['lastSeenAt', false, '0000-01-01T00:00:00Z', 'x'])],
      ['name', forged(['name', false, 'a\u0000b', 'x'])],
      ['name', forged(['name', false, 'a', 1])],
    ]) {
      const response = await get(`portal/devices?sortBy=${sortBy}&after=${after}`);
      expect(response.statusCode, after).toBe(400);
    }
    for (const url of [
      `portal/devices?sortBy=name&after=${first.next}`, // made for the battery order
      `portal/devices?sortBy=battery&descending=true&after=${first.next}`,
      `portal/users?after=${first.next}`,
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.code).toBe('bad_request');
    }
    expect((await get(`portal/devices?sortBy=battery&limit=5&after=${first.next}`)).statusCode).toBe(200);
  });

  it('ends with a page that has no next', async () => {
    const total = (await get('portal/devices?limit=1')).json<{ total: number }>().total;
    const all = (await get(`portal/devices?limit=${total}`)).json<{ items: unknown[]; next?: string }>();
    expect(all.items).toHaveLength(total);
    // A full last page may still carry a cursor; the page after it is empty and has none.
    if (all.next) {
      const after = (await get(`portal/devices?limit=${total}&after=${all.next}`)).json();
      expect(after).toMatchObject({ items: [], total });
      expect(after.next).toBeUndefined();
    }
  });
});

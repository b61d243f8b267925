import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../src/features/collections/collections';
import type { AnyCollection } from '../src/features/collections/registry';
import { recordDeviceEvent } from '../src/features/events/events.repository';
import { makeMember } from './factories';
import { makeTwoPortals, TINY_PNG, type Tenant, type TwoPortals } from './fixtures';
import { multipartBody } from './support-helpers';
import { TestApp } from './test-app';

// POST {collection}/ls for EVERY registered collection with an ls (features/collections): a record
// made after a cursor is in the next ls, then its change, then its id as deleted; another portal's
// ls hears of none of it. Collections with create, save and delete are driven through their own
// routes with their declared examples; the others say how here (LIFECYCLES).

let t: TestApp;
let portals: TwoPortals;

beforeAll(async () => {
  t = await TestApp.start();
  portals = await makeTwoPortals(t);
});
afterAll(() => t.close());

/** How to make, change and delete one record of a collection, as its portal's admin. */
interface Lifecycle {
  create: (tenant: Tenant) => Promise<string>;
  change: (tenant: Tenant, id: string) => Promise<void>;
  /** Absent for records never deleted (lock events stay when their lock goes). */
  remove?: (tenant: Tenant, id: string) => Promise<void>;
}

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) {
  const response = await t.request({ method, url: `/api3/${url}`, token, ...(payload && { payload }) });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.statusCode === 204 ? null : response.json();
}

/** A `{deviceId}`-style example filled from one portal's fixtures. */
function filled(example: unknown, tenant: Tenant): object {
  return JSON.parse(
    JSON.stringify(example).replace(/"\{(\w+)\}"/g, (_, key: string) =>
      JSON.stringify(tenant[key as keyof Tenant]),
    ),
  ) as object;
}

const idOf = (answer: { _id?: string; device?: { _id: string }; member?: { _id: string } }) =>
  answer._id ?? answer.device?._id ?? answer.member?._id ?? '';

const newLock = async (tenant: Tenant) =>
  idOf(
    await call('POST', 'crudDevices/new', tenant.admin, {
      name: 'Changes lock',
      model: 'latchkey-sim',
      timeZone: 'UTC',
    }),
  );

/** The UTC date `days` from today. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * A review of the portal's listing: a guest asks for a stay, the host approves it, it is moved
 * into the past (reviews open at check-out) and the guest reviews it through their link.
 */
async function newReview(tenant: Tenant): Promise<string> {
  const guest = { remoteAddress: `10.9.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}` };
  const asked = await t.request({
    method: 'POST',
    url: `/api3/device/${tenant.listingId}/request`,
    payload: {
      name: 'Changes Guest',
      email: 'changes-guest@example.com',
      startDate: inDays(50),
      endDate: inDays(52),
    },
    ...guest,
  });
  expect(asked.statusCode).toBe(201);
  const stayId = asked.json()._id as string;
  await call('POST', `device/${tenant.listingId}/request/${stayId}`, tenant.admin, { action: 'approve' });
  await t.app.db
    .updateTable('stays')
    .set({ start_date: inDays(-6), end_date: inDays(-4) })
    .where('id', '=', stayId)
    .execute();
  const reviewed = await t.request({
    method: 'POST',
    url: `/api3/review/${t.app.rental.deps.tokens.sign('review', stayId, 1)}`,
    payload: { rating: 4, text: 'Quiet and clean' },
    ...guest,
  });
  expect(reviewed.statusCode).toBe(201);
  const review = await t.app.db
    .selectFrom('reviews')
    .select('id')
    .where('stay_id', '=', stayId)
    .executeTakeFirstOrThrow();
  return review.id;
}

/** Collections that cannot be driven by their own create/save/delete alone. */
const LIFECYCLES: Record<string, Lifecycle> = {
  device: {
    create: newLock,
    change: (tenant, id) =>
      call('POST', `device/${id}`, tenant.admin, { name: 'Renamed lock' }).then(() => {}),
    remove: (tenant, id) => call('DELETE', `crudDevices/${id}`, tenant.admin).then(() => {}),
  },
  // features/access-requests: asked for a new lock, then declined; requests are never deleted.
  accessRequest: {
    create: async (tenant) =>
      idOf(
        await call('POST', 'accessRequest/new', tenant.admin, { deviceId: await newLock(tenant), note: '' }),
      ),
    change: (tenant, id) =>
      call('POST', `accessRequest/decline/${id}`, tenant.admin, { reason: 'Not this one' }).then(() => {}),
  },
  history: {
    create: async (tenant) => {
      await recordDeviceEvent(t.app.db, {
        portalId: tenant.portalId,
        deviceId: tenant.deviceId,
        eventId: crypto.randomUUID(),
        type: 'unlock',
        method: 'remote',
        credentialId: null,
        userId: tenant.userId,
        reason: null,
        occurredAt: new Date().toISOString(),
      });
      const page = await call('POST', 'history', tenant.admin, {});
      return page.items[0]._id as string;
    },
    // Events are never edited: a second one is the change a client hears of.
    change: async () => {},
  },
  rfid: {
    create: async (tenant) =>
      idOf(
        await call('POST', 'rfid/new', tenant.admin, {
          uid: crypto.randomBytes(4).toString('hex').toUpperCase(),
          userId: tenant.userId,
        }),
      ),
    change: async (tenant, id) => {
      const card = await call('GET', `rfid/${id}`, tenant.admin);
      await call('POST', `rfid/${id}`, tenant.admin, {
        uid: card.uid,
        userId: tenant.userId,
        name: 'Relabelled',
      });
    },
    remove: (tenant, id) => call('DELETE', `rfid/${id}`, tenant.admin).then(() => {}),
  },
  fingerPrint: {
    create: async (tenant) =>
      idOf(
        await call('POST', 'fingerPrint/new', tenant.admin, {
          deviceId: tenant.deviceId,
          userId: tenant.userId,
          templateId: String(crypto.randomInt(100, 999)),
          finger: 'right-index',
        }),
      ),
    change: (tenant, id) =>
      call('POST', `fingerPrint/${id}`, tenant.admin, { finger: 'left-ring' }).then(() => {}),
    remove: (tenant, id) => call('DELETE', `fingerPrint/${id}`, tenant.admin).then(() => {}),
  },
  userPortal: {
    create: async (tenant) => (await makeMember(t, tenant.portalId)).userId,
    change: (tenant, id) =>
      call('POST', `userPortal/${id}`, tenant.admin, { firstName: 'Changed' }).then(() => {}),
    remove: (tenant, id) => call('DELETE', `userPortal/${id}`, tenant.admin).then(() => {}),
  },
  // features/listings: a listing's own REST routes are at the collection's paths.
  listing: {
    create: async (tenant) =>
      idOf(
        await call('POST', 'listing/new', tenant.admin, {
          title: 'Changes flat',
          deviceIds: [tenant.deviceId],
        }),
      ),
    change: (tenant, id) =>
      call('POST', `listing/${id}`, tenant.admin, {
        title: 'Renamed flat',
        deviceIds: [tenant.deviceId],
      }).then(() => {}),
    remove: (tenant, id) => call('DELETE', `listing/${id}`, tenant.admin).then(() => {}),
  },
  listingCategory: {
    create: async (tenant) =>
      idOf(await call('POST', 'listingCategory/new', tenant.admin, { name: 'Cabins' })),
    change: (tenant, id) =>
      call('POST', `listingCategory/${id}`, tenant.admin, { name: 'Barns' }).then(() => {}),
    remove: (tenant, id) => call('DELETE', `listingCategory/${id}`, tenant.admin).then(() => {}),
  },
  // A guest's review of a stay that is over, then hidden by the host; reviews are never deleted.
  reviews: {
    create: newReview,
    change: (tenant, id) =>
      call('POST', `listing/${tenant.listingId}/review/${id}`, tenant.admin, {
        action: 'hide',
        reason: 'Names a neighbour',
      }).then(() => {}),
  },
  // An upload's body is the image's bytes (POST listing/{id}/image); then the collection's own routes.
  userImages: {
    create: async (tenant) => {
      const response = await t.request({
        method: 'POST',
        url: `/api3/listing/${tenant.listingId}/image`,
        token: tenant.admin,
        payload: TINY_PNG,
        headers: { 'content-type': 'image/png' },
      });
      expect(response.statusCode).toBe(201);
      return response.json()._id as string;
    },
    change: (tenant, id) => call('POST', `userImages/${id}`, tenant.admin, { alt: 'Renamed' }).then(() => {}),
    remove: (tenant, id) => call('DELETE', `userImages/${id}`, tenant.admin).then(() => {}),
  },
  // Entries are changed on their listing's routes, which name the listing.
  listingAccessList: {
    create: async (tenant) =>
      idOf(
        await call('POST', `listing/${tenant.listingId}/accessList/new`, tenant.admin, { name: 'Gardener' }),
      ),
    change: (tenant, id) =>
      call('POST', `listing/${tenant.listingId}/accessList/${id}`, tenant.admin, {
        name: 'Head gardener',
      }).then(() => {}),
    remove: (tenant, id) =>
      call('DELETE', `listing/${tenant.listingId}/accessList/${id}`, tenant.admin).then(() => {}),
  },
  // features/readers: pairing answers the reader inside `reader` (with its secret).
  peripheral: {
    create: async (tenant) =>
      (await call('POST', 'peripheral/new', tenant.admin, { name: 'Side desk', kind: 'rfid' })).reader
        ._id as string,
    change: (tenant, id) =>
      call('POST', `peripheral/${id}`, tenant.admin, { name: 'Renamed desk' }).then(() => {}),
    remove: (tenant, id) => call('DELETE', `peripheral/${id}`, tenant.admin).then(() => {}),
  },
  // Enrollments are started on a reader that just said it is online, then cancelled; never deleted by hand.
  rfidPeriph: enrollmentLifecycle('rfidPeriph'),
  fingerPrintPeriph: enrollmentLifecycle('fingerPrintPeriph'),
  // features/support: a thread is started as a support request (multipart, as the page sends it),
  // then answered; threads are never deleted.
  aithread: {
    create: async (tenant) => {
      const { payload, headers } = multipartBody({
        type: 'lock',
        description: 'The door sticks',
        navId: '/app/dashboard',
      });
      const response = await t.request({
        method: 'POST',
        url: '/api3/portal/support',
        token: tenant.admin,
        payload,
        headers,
      });
      if (response.statusCode !== 201) throw new Error(`support request: ${response.body}`);
      return response.json()._id as string;
    },
    change: (tenant, id) =>
      call('POST', `aithread/reply/${id}`, tenant.admin, { message: 'Still sticking' }).then(() => {}),
  },
  // features/api-keys: `new` answers the key inside `key` (with its secret). Keys are never edited
  // and never deleted: DELETE revokes, and the revoked key stays readable (with revokedAt), so the
  // revocation is the change (a last use is none: collections-apikeys.test.ts).
  apikeys: {
    create: async (tenant) => {
      const created = await call('POST', 'apikeys/new', tenant.admin, {
        name: 'Changes key',
        scopes: ['devices:read'],
      });
      return created.key._id as string;
    },
    change: (tenant, id) => call('DELETE', `apikeys/${id}`, tenant.admin).then(() => {}),
  },
};

function enrollmentLifecycle(collection: 'rfidPeriph' | 'fingerPrintPeriph'): Lifecycle {
  return {
    create: async (tenant) => {
      await t.app.readers.handle({
        readerId: tenant.readerId,
        topic: 'status',
        payload: Buffer.from(
          JSON.stringify({ online: true, firmware: 'test', ts: new Date().toISOString() }),
        ),
      });
      const enrollment = await call('POST', `${collection}/new`, tenant.admin, {
        readerId: tenant.readerId,
        userId: tenant.userId,
      });
      const read = await call('GET', `${collection}/${enrollment._id}`, tenant.admin);
      expect(read).toMatchObject({ _id: enrollment._id, state: 'waiting', userId: tenant.userId });
      return enrollment._id as string;
    },
    change: async (tenant, id) => {
      const cancelled = await call('POST', `${collection}/cancel/${id}`, tenant.admin, {});
      expect(cancelled.state).toBe('cancelled');
    },
  };
}

/** The lifecycle of a collection: its own, or its create/save/delete routes with their examples. */
function lifecycleOf(collection: AnyCollection): Lifecycle | undefined {
  if (LIFECYCLES[collection.name]) return LIFECYCLES[collection.name];
  const { create, save, remove, name } = collection;
  if (!create || !save || !remove) return undefined;
  return {
    create: async (tenant) =>
      idOf(await call('POST', `${name}/new`, tenant.admin, filled(create.example, tenant))),
    change: (tenant, id) =>
      call('POST', `${name}/${id}`, tenant.admin, filled(save.example, tenant)).then(() => {}),
    remove: (tenant, id) => call('DELETE', `${name}/${id}`, tenant.admin).then(() => {}),
  };
}

interface Changes {
  changed: { _id?: string; member?: { _id: string } }[];
  deleted: string[];
  next: string;
  more: boolean;
}

/** Every page of changes since `since`, as a client reads them (calling again while `more`). */
async function changesSince(name: string, token: string, since?: string): Promise<Changes> {
  const all: Changes = { changed: [], deleted: [], next: since ?? '', more: false };
  for (;;) {
    const page = (await call('POST', `${name}/ls`, token, {
      ...(all.next && { since: all.next }),
      limit: 2,
    })) as Changes;
    all.changed.push(...page.changed);
    all.deleted.push(...page.deleted);
    all.next = page.next;
    if (!page.more) return all;
  }
}

/**
 * The changes since `since` once `seen` holds them. On PostgreSQL, ls returns a change only once
 * every transaction older than it has ended (changes.repository.ts), and test files share one
 * server: another file's open transaction can hold a change back for a moment, never lose it.
 */
async function changesUntil(
  name: string,
  token: string,
  since: string | undefined,
  seen: (changes: Changes) => boolean,
): Promise<Changes> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const changes = await changesSince(name, token, since);
    if (seen(changes) || Date.now() > deadline) return changes;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const withLs = COLLECTIONS.filter((c) => c.ls);

it('knows how to drive every collection that answers ls', () => {
  expect(withLs.filter((c) => !lifecycleOf(c)).map((c) => c.name)).toEqual([]);
});

describe.each(withLs.map((c) => [c.name, c] as const))('POST %s/ls', (name, collection) => {
  it('reports a new record, then its change, then its deletion, and nothing to another portal', async () => {
    const lifecycle = lifecycleOf(collection)!;
    const { a, b } = portals;
    const start = await changesSince(name, a.admin);
    const startB = await changesSince(name, b.admin);

    const id = await lifecycle.create(a);
    const afterCreate = await changesUntil(name, a.admin, start.next, (c) =>
      c.changed.map(idOf).includes(id),
    );
    expect(afterCreate.changed.map(idOf)).toContain(id);
    expect(afterCreate.deleted).not.toContain(id);

    await lifecycle.change(a, id);
    const afterChange = await changesUntil(
      name,
      a.admin,
      afterCreate.next,
      (c) => name === 'history' || c.changed.map(idOf).includes(id),
    );
    if (name !== 'history') expect(afterChange.changed.map(idOf)).toEqual([id]);
    else expect(afterChange.changed).toEqual([]);

    if (lifecycle.remove) {
      await lifecycle.remove(a, id);
      const afterRemove = await changesUntil(name, a.admin, afterChange.next, (c) => c.deleted.includes(id));
      expect(afterRemove.deleted).toContain(id);
      expect(afterRemove.changed.map(idOf)).not.toContain(id);
      // Nothing new: the cursor has moved past it.
      expect(await changesSince(name, a.admin, afterRemove.next)).toMatchObject({ changed: [], deleted: [] });
    }

    const other = await changesSince(name, b.admin, startB.next);
    expect(other.changed.map(idOf)).not.toContain(id);
    expect(other.deleted).not.toContain(id);
    expect(JSON.stringify(other)).not.toContain(a.portalId);
  });
});

it('a first ls without since lists what there already is', async () => {
  const everything = await changesUntil('crudDevices', portals.a.admin, undefined, (c) =>
    c.changed.map(idOf).includes(portals.a.deviceId),
  );
  expect(everything.changed.map(idOf)).toContain(portals.a.deviceId);
});

it('a basic user hears only of the locks they reach', async () => {
  const { a } = portals;
  const start = await changesSince('device', a.user);
  await call('POST', `device/${a.deviceId}`, a.admin, { name: 'Their door' });
  const unreachable = await newLock(a);
  const seen = await changesUntil('device', a.user, start.next, (c) =>
    c.changed.map(idOf).includes(a.deviceId),
  );
  expect(seen.changed.map(idOf)).toEqual([a.deviceId]);
  expect(JSON.stringify(seen)).not.toContain(unreachable);
});

it("a basic user hears of their own support threads, never of the admin's", async () => {
  const { a } = portals;
  const start = await changesSince('aithread', a.user);
  const file = async (token: string, description: string) => {
    const { payload, headers } = multipartBody({ type: 'lock', description, navId: '/user' });
    const response = await t.request({
      method: 'POST',
      url: '/api3/portal/support',
      token,
      payload,
      headers,
    });
    return response.json()._id as string;
  };
  const admins = await file(a.admin, 'The admin asks');
  const theirs = await file(a.user, 'The resident asks');
  const seen = await changesUntil('aithread', a.user, start.next, (c) =>
    c.changed.map(idOf).includes(theirs),
  );
  expect(seen.changed.map(idOf)).toEqual([theirs]);
  expect(JSON.stringify(seen)).not.toContain(admins);
  expect(seen.deleted).toEqual([]);
});

it('a lock heartbeat is no change, so ls stays quiet while locks merely check in', async () => {
  const { a } = portals;
  const start = await changesSince('crudDevices', a.admin);
  await t.app.db
    .updateTable('devices')
    .set({ last_seen_at: new Date().toISOString() })
    .where('id', '=', a.deviceId)
    .execute();
  const after = await changesSince('crudDevices', a.admin, start.next);
  expect(after.changed.map(idOf)).not.toContain(a.deviceId);
});

it("a listing changes with a guest's request, not with the row lock an approval takes", async () => {
  const { a } = portals;
  const pendingOf = (page: { items: { _id: string; pendingRequests: number }[] }) =>
    page.items.find((listing) => listing._id === a.listingId)?.pendingRequests;
  const pending = pendingOf(await call('POST', 'listing', a.admin, {}));
  const start = await changesSince('listing', a.admin);
  // As listings.repository.ts lockListingRow: only updated_at is written.
  await t.app.db
    .updateTable('listings')
    .set({ updated_at: new Date().toISOString() })
    .where('id', '=', a.listingId)
    .execute();
  expect((await changesSince('listing', a.admin, start.next)).changed).toEqual([]);

  const asked = await t.request({
    method: 'POST',
    url: `/api3/device/${a.listingId}/request`,
    payload: { name: 'Late Guest', email: 'late@example.com', startDate: inDays(70), endDate: inDays(72) },
    remoteAddress: `10.9.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`,
  });
  expect(asked.statusCode).toBe(201);
  const after = await changesUntil('listing', a.admin, start.next, (c) =>
    c.changed.map(idOf).includes(a.listingId),
  );
  expect(after.changed).toEqual([
    expect.objectContaining({ _id: a.listingId, pendingRequests: pending! + 1 }),
  ]);
});

it('refuses a cursor it did not make', async () => {
  const response = await t.request({
    method: 'POST',
    url: '/api3/device/ls',
    token: portals.a.admin,
    payload: { since: "1' or 1=1" },
  });
  expect(response.statusCode).toBe(400);
});

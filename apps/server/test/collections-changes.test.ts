import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../src/features/collections/collections';
import type { AnyCollection } from '../src/features/collections/registry';
import { recordDeviceEvent } from '../src/features/events/events.repository';
import { makeMember } from './factories';
import { makeTwoPortals, type Tenant, type TwoPortals } from './fixtures';
import { TestApp } from './test-app';

// POST {collection}/ls for EVERY registered collection with an ls (features/collections): a record
// made after a cursor is in the next ls, then its change, then its id as deleted; another portal's
// ls hears of none of it. Collections with create, save and delete are driven through their own
// routes with their declared examples; the others say how here (LIFECYCLES).

let t: TestApp;
let portals: TwoPortals;

beforeAll(async () => {
  t = await TestApp.start();
  portals = await makeTwoPortals(t, { rentals: false });
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
  // features/api-keys: `new` answers the key inside `key` (with its secret); DELETE revokes it. Keys
  // are never edited through the API, so the change is a rename written to the table (a last use is
  // no change: collections-apikeys.test.ts).
  apikeys: {
    create: async (tenant) => {
      const created = await call('POST', 'apikeys/new', tenant.admin, {
        name: 'Changes key',
        scopes: ['devices:read'],
      });
      return created.key._id as string;
    },
    change: async (_tenant, id) => {
      await t.app.db.updateTable('api_keys').set({ name: 'Renamed key' }).where('id', '=', id).execute();
    },
    remove: (tenant, id) => call('DELETE', `apikeys/${id}`, tenant.admin).then(() => {}),
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

it('refuses a cursor it did not make', async () => {
  const response = await t.request({
    method: 'POST',
    url: '/api3/device/ls',
    token: portals.a.admin,
    payload: { since: "1' or 1=1" },
  });
  expect(response.statusCode).toBe(400);
});

import crypto from 'node:crypto';
import { API_KEY_AREAS, type ApiKeyArea } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLECTIONS } from '../src/features/collections/collections';
import {
  collectionApiArea,
  type AnyCollection,
  type CollectionRole,
} from '../src/features/collections/registry';
import { recordDeviceEvent } from '../src/features/events/events.repository';
import { makeMember } from './factories';
import { makeTwoPortals, type Tenant, type TwoPortals } from './fixtures';
import { TestApp } from './test-app';

// Every registered collection × every operation it has (features/collections), called by:
// nobody (401); portal A's basic user (403 on admin operations; on member ones, nothing of what is
// not theirs: another person, a lock they do not reach, another person's lock events); portal B's
// admin (A's ids answer 403/404, B's lists and ls hold nothing of A); and an API key of portal A
// without the collection's scope (403), or with only its read scope on a write (403), or any key at
// all on a collection no key may call (area null).

let t: TestApp;
let portals: TwoPortals;
/** Portal A's records its basic user must never see: another member, a lock they do not reach, an event not theirs. */
const secret: { userId: string; deviceId: string; eventId: string } = {
  userId: '',
  deviceId: '',
  eventId: '',
};

beforeAll(async () => {
  t = await TestApp.start({ API_KEY_LIMIT_PER_MINUTE: '100000' });
  portals = await makeTwoPortals(t);
  const { a } = portals;
  secret.userId = (await makeMember(t, a.portalId)).userId;
  const lock = await t.request({
    method: 'POST',
    url: '/api3/crudDevices/new',
    token: a.admin,
    payload: { name: 'Server room', model: 'latchkey-sim', timeZone: 'UTC' },
  });
  secret.deviceId = lock.json().device._id;
  await recordDeviceEvent(t.app.db, {
    portalId: a.portalId,
    deviceId: secret.deviceId,
    eventId: crypto.randomUUID(),
    type: 'unlock',
    method: 'code',
    credentialId: null,
    userId: secret.userId,
    reason: null,
    occurredAt: new Date().toISOString(),
  });
  secret.eventId = (
    await t.app.db
      .selectFrom('device_events')
      .select('id')
      .where('device_id', '=', secret.deviceId)
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(() => t.close());

type Operation = 'get' | 'list' | 'ls' | 'create' | 'save' | 'remove' | `method:${string}`;

interface Call {
  operation: Operation;
  access: CollectionRole;
  write: boolean;
  method: 'GET' | 'POST' | 'DELETE';
  /** The path under /api3 for a record id. */
  path: (id: string) => string;
  body?: (tenant: Tenant) => unknown;
}

/** A `{deviceId}`-style example filled from one portal's fixtures. */
function filled(example: unknown, tenant: Tenant): unknown {
  return JSON.parse(
    JSON.stringify(example).replace(/"\{(\w+)\}"/g, (_, key: string) =>
      JSON.stringify(tenant[key as keyof Tenant]),
    ),
  ) as unknown;
}

/** Every operation of a collection as a call. */
function callsOf(c: AnyCollection): Call[] {
  const calls: Call[] = [];
  if (c.get)
    calls.push({
      operation: 'get',
      access: c.get.access,
      write: false,
      method: 'GET',
      path: (id) => `${c.name}/${id}`,
    });
  if (c.list)
    calls.push({
      operation: 'list',
      access: c.list.access,
      write: false,
      method: 'POST',
      path: () => c.name,
      body: () => ({}),
    });
  if (c.ls)
    calls.push({
      operation: 'ls',
      access: c.ls.access,
      write: false,
      method: 'POST',
      path: () => `${c.name}/ls`,
      body: () => ({}),
    });
  if (c.create) {
    const example = c.create.example;
    calls.push({
      operation: 'create',
      access: c.create.access,
      write: true,
      method: 'POST',
      path: () => `${c.name}/new`,
      body: (tenant) => filled(example, tenant),
    });
  }
  if (c.save) {
    const example = c.save.example;
    calls.push({
      operation: 'save',
      access: c.save.access,
      write: true,
      method: 'POST',
      path: (id) => `${c.name}/${id}`,
      body: (tenant) => filled(example, tenant),
    });
  }
  if (c.remove)
    calls.push({
      operation: 'remove',
      access: c.remove.access,
      write: true,
      method: 'DELETE',
      path: (id) => `${c.name}/${id}`,
    });
  for (const [name, m] of Object.entries(c.methods ?? {}))
    calls.push({
      operation: `method:${name}`,
      access: m.access,
      write: true,
      method: 'POST',
      path: (id) => `${c.name}/${name}/${id}`,
      body: (tenant) => filled(m.example, tenant),
    });
  return calls;
}

/** A tenant's record of the collection's id kind (what `{id}` names). */
function recordOf(c: AnyCollection, tenant: Tenant): string {
  return tenant[c.idKind as keyof Tenant] ?? crypto.randomUUID();
}

async function send(
  call: Call,
  c: AnyCollection,
  tenant: Tenant,
  token: string | undefined,
  options: { id?: string; portal?: string } = {},
) {
  return t.request({
    method: call.method,
    url: `/api3/${call.path(options.id ?? recordOf(c, tenant))}`,
    ...(token && { token }),
    ...(options.portal && { portal: options.portal }),
    ...(call.body && { payload: call.body(tenant) as object }),
  });
}

const cases = COLLECTIONS.flatMap((c) =>
  callsOf(c).map(
    (call) => [`${call.method} ${call.path(':id')} (${c.name} ${call.operation})`, c, call] as const,
  ),
);

describe.each(cases)('%s', (_, collection, call) => {
  it('401 for nobody', async () => {
    expect((await send(call, collection, portals.a, undefined)).statusCode).toBe(401);
  });

  if (call.access === 'account') {
    // An account collection's records are the person's own account's: the basic user has none.
    it('403 or 404 for a basic user of the portal (no account of theirs holds these records)', async () => {
      const response = await send(call, collection, portals.a, portals.a.user);
      expect([403, 404], `${response.statusCode} ${response.body}`).toContain(response.statusCode);
    });
  } else if (call.access !== 'member') {
    it('403 for a basic user of the portal', async () => {
      expect((await send(call, collection, portals.a, portals.a.user)).statusCode).toBe(403);
    });
  } else {
    it("a basic user gets nothing that is not theirs: nobody else's record, a lock they do not reach, others' events", async () => {
      const response = await send(call, collection, portals.a, portals.a.user);
      expect(response.statusCode).toBeLessThan(500);
      for (const id of Object.values(secret)) expect(response.body).not.toContain(id);
      if (call.operation === 'get' || call.operation.startsWith('method:') || call.operation === 'save') {
        const other =
          collection.idKind === 'userId'
            ? secret.userId
            : collection.idKind === 'deviceId'
              ? secret.deviceId
              : null;
        if (other) {
          const refused = await send(call, collection, portals.a, portals.a.user, { id: other });
          expect([403, 404], `${refused.statusCode} ${refused.body}`).toContain(refused.statusCode);
        }
      }
    });
  }

  it("another portal's admin: 403 acting in A, 403/404 for A's record, nothing of A in their own answers", async () => {
    const { a, b } = portals;
    const override = await send(call, collection, a, b.admin, { portal: a.portalId });
    expect(override.statusCode).toBe(403);
    if (call.path('x') !== call.path('y')) {
      const foreign = await send(call, collection, b, b.admin, { id: recordOf(collection, a) });
      expect([403, 404], `${foreign.statusCode} ${foreign.body}`).toContain(foreign.statusCode);
    } else if (!call.write) {
      const own = await send(call, collection, b, b.admin);
      // A platform collection's records are no portal's: staff's alone. An account collection's are
      // the person's own account's, and B's admin has none (404, as the feature's REST routes answer).
      expect(own.statusCode, own.body).toBe(
        call.access === 'staff' ? 403 : call.access === 'account' ? 404 : 200,
      );
      for (const id of [
        a.portalId,
        a.deviceId,
        a.userId,
        a.groupId,
        a.lockoutId,
        a.rfidId,
        a.fingerprintId,
        ...Object.values(secret),
      ])
        expect(own.body).not.toContain(id);
    }
  });

  it("an API key of the portal without the collection's scope: 403", async () => {
    const { a } = portals;
    // The collection's feature decides it, as for the feature's REST routes (collectionApiArea).
    const area = collectionApiArea(collection);
    if (area === null) {
      // No key may call this collection (apikeys): even the fixtures' key, with every scope.
      const response = await send(call, collection, a, a.apiKey);
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json().error.code).toBe('api_key_not_allowed');
      return;
    }
    const otherArea = API_KEY_AREAS.find(
      (other) => other !== area && other !== 'billing' && other !== 'events',
    ) as ApiKeyArea;
    const key = await t.request({
      method: 'POST',
      url: '/api3/portal/apikeys',
      token: a.admin,
      payload: { name: `Not ${area}`, scopes: [`${otherArea}:write`] },
    });
    expect(key.statusCode, key.body).toBe(201);
    const response = await send(call, collection, a, key.json().secret as string);
    expect(response.statusCode, response.body).toBe(403);
    if (call.write) {
      const reader = await t.request({
        method: 'POST',
        url: '/api3/portal/apikeys',
        token: a.admin,
        payload: { name: `Reads ${area}`, scopes: [`${area}:read`] },
      });
      const refused = await send(call, collection, a, reader.json().secret as string);
      expect(refused.statusCode, refused.body).toBe(403);
    } else {
      // A read (GET, or a list or ls POSTed with its filter) needs only the read scope: the key is
      // let through (what the record then answers is the other cases' business).
      const reader = await t.request({
        method: 'POST',
        url: '/api3/portal/apikeys',
        token: a.admin,
        payload: { name: `Reads ${area}`, scopes: [`${area}:read`] },
      });
      const read = await send(call, collection, a, reader.json().secret as string);
      expect(read.statusCode, read.body).not.toBe(403);
    }
  });
});

import type { BulkAccessResult, DeviceSync } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeGroupLink } from '../src/features/groups/groups.service';
import { makeMember } from './factories';
import { makeTwoPortals, type TwoPortals } from './fixtures';
import { TestApp } from './test-app';

// POST portal/users/access (issue 19, item 7): one request gives or removes access to a lock or a
// group for several people, all or nothing, and every chosen lock's credential set follows.

let t: TestApp;
let portals: TwoPortals;
let people: string[];
let backDoor: string;

beforeAll(async () => {
  t = await TestApp.start();
  portals = await makeTwoPortals(t, { rentals: false });
  people = [];
  for (const name of ['Ada', 'Brook', 'Cyd']) {
    people.push((await makeMember(t, portals.a.portalId, { firstName: name })).userId);
  }
  const created = await t.request({
    method: 'POST',
    url: '/api3/portal/device/new',
    token: portals.a.admin,
    payload: { name: 'Back door', model: 'latchkey-sim', timeZone: 'UTC' },
  });
  backDoor = created.json().device._id;
  // The fixture's group "Staff" opens both doors.
  const context = { portalId: portals.a.portalId, actorUserId: people[0]!, ip: '127.0.0.1' };
  for (const deviceId of [portals.a.deviceId, backDoor]) {
    await changeGroupLink(t.app.db, context, portals.a.groupId, { deviceId }, true);
  }
}, 60_000);
afterAll(() => t.close());

const bulk = (payload: object, token = portals.a.admin) =>
  t.request({ method: 'POST', url: '/api3/portal/users/access', token, payload });

/** The people a lock's desired credential set holds an entry for, once the recompute ran. */
async function peopleAtLock(deviceId: string): Promise<Set<string>> {
  await t.app.deviceLink.flushScheduledSyncs();
  const response = await t.request({
    method: 'GET',
    url: `/api3/device/${deviceId}/sync`,
    token: portals.a.admin,
  });
  expect(response.statusCode, response.body).toBe(200);
  const sync = response.json() as DeviceSync;
  return new Set(sync.credentials.map((c) => c.userId).filter((id): id is string => id !== null));
}

async function auditCount() {
  const row = await t.app.db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('portal_id', '=', portals.a.portalId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('POST portal/users/access', () => {
  it('gives several people a lock in one request, and the lock’s set names each of them', async () => {
    const response = await bulk({
      userIds: people.slice(0, 2),
      target: { kind: 'lock', id: backDoor },
      change: 'grant',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual<BulkAccessResult>({ changed: 2, people: 2, lockIds: [backDoor] });
    const atLock = await peopleAtLock(backDoor);
    expect(atLock.has(people[0]!) && atLock.has(people[1]!)).toBe(true);
    expect(atLock.has(people[2]!)).toBe(false);
    // Done again, nobody changes.
    const again = await bulk({
      userIds: people.slice(0, 2),
      target: { kind: 'lock', id: backDoor },
      change: 'grant',
    });
    expect(again.json().changed).toBe(0);
  });

  it('puts several people in a group: every lock of the group gets them', async () => {
    const response = await bulk({
      userIds: people,
      target: { kind: 'group', id: portals.a.groupId },
      change: 'grant',
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json() as BulkAccessResult;
    expect(result.changed).toBe(3);
    expect(result.lockIds.sort()).toEqual([portals.a.deviceId, backDoor].sort());
    for (const deviceId of result.lockIds) {
      const atLock = await peopleAtLock(deviceId);
      for (const id of people) expect(atLock.has(id), deviceId).toBe(true);
    }
  });

  it('removes them again, from the group and the lock', async () => {
    expect(
      (await bulk({ userIds: people, target: { kind: 'group', id: portals.a.groupId }, change: 'revoke' }))
        .statusCode,
    ).toBe(200);
    const removed = await bulk({ userIds: people, target: { kind: 'lock', id: backDoor }, change: 'revoke' });
    expect(removed.json().changed).toBe(2);
    const atLock = await peopleAtLock(backDoor);
    for (const id of people) expect(atLock.has(id)).toBe(false);
  });

  it('changes nothing when one person is another portal’s (404), nor for another portal’s lock', async () => {
    const before = await auditCount();
    const mixed = await bulk({
      userIds: [people[0], portals.b.userId],
      target: { kind: 'lock', id: backDoor },
      change: 'grant',
    });
    expect(mixed.statusCode, mixed.body).toBe(404);
    const foreignLock = await bulk({
      userIds: [people[0]],
      target: { kind: 'lock', id: portals.b.deviceId },
      change: 'grant',
    });
    expect(foreignLock.statusCode).toBe(404);
    const foreignGroup = await bulk({
      userIds: [people[0]],
      target: { kind: 'group', id: portals.b.groupId },
      change: 'grant',
    });
    expect(foreignGroup.statusCode).toBe(404);
    expect(await auditCount()).toBe(before);
    expect((await peopleAtLock(backDoor)).has(people[0]!)).toBe(false);
    const link = await t.app.db
      .selectFrom('device_users')
      .select('user_id')
      .where('device_id', '=', backDoor)
      .execute();
    expect(link).toEqual([]);
  });

  it('refuses a bad body (400): no people, a person twice, an unknown change', async () => {
    for (const payload of [
      { userIds: [], target: { kind: 'lock', id: backDoor }, change: 'grant' },
      { userIds: [people[0], people[0]], target: { kind: 'lock', id: backDoor }, change: 'grant' },
      { userIds: [people[0]], target: { kind: 'lock', id: backDoor }, change: 'toggle' },
      { userIds: [people[0]], target: { kind: 'door', id: backDoor }, change: 'grant' },
    ]) {
      expect((await bulk(payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it('is for admins (403 for a basic user)', async () => {
    const response = await bulk(
      { userIds: [people[0]], target: { kind: 'lock', id: backDoor }, change: 'grant' },
      portals.a.user,
    );
    expect(response.statusCode).toBe(403);
  });

  it('asks an API key for the scope of the lock or group it changes, not only people:write', async () => {
    const key = async (scopes: string[]) => {
      const made = await t.request({
        method: 'POST',
        url: '/api3/portal/apikeys',
        token: portals.a.admin,
        payload: { name: scopes.join(' '), scopes },
      });
      expect(made.statusCode, made.body).toBe(201);
      return made.json().secret as string;
    };
    const peopleOnly = await key(['people:write']);
    const toLock = { userIds: [people[2]], target: { kind: 'lock', id: backDoor }, change: 'grant' };
    const toGroup = {
      userIds: [people[2]],
      target: { kind: 'group', id: portals.a.groupId },
      change: 'grant',
    };
    const before = await auditCount();
    for (const [payload, scope] of [
      [toLock, 'devices:write'],
      [toGroup, 'groups:write'],
    ] as const) {
      const refused = await bulk(payload, peopleOnly);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().error).toMatchObject({ code: 'api_key_scope_missing' });
      expect(refused.json().error.message).toContain(scope);
    }
    expect(await auditCount()).toBe(before);
    expect((await peopleAtLock(backDoor)).has(people[2]!)).toBe(false);

    const withLocks = await bulk(toLock, await key(['people:write', 'devices:write']));
    expect(withLocks.statusCode, withLocks.body).toBe(200);
    expect((await peopleAtLock(backDoor)).has(people[2]!)).toBe(true);
    const withGroups = await bulk(toGroup, await key(['people:write', 'groups:write']));
    expect(withGroups.statusCode, withGroups.body).toBe(200);
  });

  it('takes a schedule away with the access, as the one-person revoke does, and keeps it in the change log', async () => {
    const person = (await makeMember(t, portals.a.portalId, { firstName: 'Dana' })).userId;
    // A lock no group of Dana's reaches: the fixture's second lock, outside "Staff".
    const lone = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: portals.a.admin,
      payload: { name: 'Bike room', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    const lockId = lone.json().device._id as string;
    const target = { kind: 'lock', id: lockId };
    expect((await bulk({ userIds: [person], target, change: 'grant' })).statusCode).toBe(200);
    const schedule = { windows: [{ days: [1], start: '09:00', end: '10:00' }] };
    const set = await t.request({
      method: 'POST',
      url: `/api3/portal/device/${lockId}/schedule/${person}`,
      token: portals.a.admin,
      payload: { schedule },
    });
    expect(set.statusCode, set.body).toBe(200);

    expect((await bulk({ userIds: [person], target, change: 'revoke' })).statusCode).toBe(200);
    const after = await t.request({
      method: 'GET',
      url: `/api3/portal/device/${lockId}/schedule/${person}`,
      token: portals.a.admin,
    });
    expect(after.json()).toEqual({ schedule: null });
    const entry = await t.app.db
      .selectFrom('audit_log')
      .select('before_json')
      .where('portal_id', '=', portals.a.portalId)
      .where('action', '=', 'access.revoke')
      .where('entity_id', '=', lockId)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(entry.before_json ?? 'null')).toMatchObject({ schedule });

    // Granted again, the person is on no old limit nobody sees.
    expect((await bulk({ userIds: [person], target, change: 'grant' })).statusCode).toBe(200);
    const regranted = await t.request({
      method: 'GET',
      url: `/api3/portal/device/${lockId}/schedule/${person}`,
      token: portals.a.admin,
    });
    expect(regranted.json()).toEqual({ schedule: null });
  });
});

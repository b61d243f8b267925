import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDesiredSet } from '../src/features/device-link/credential-set-bodies';
import { makeMember, makeOwner } from './factories';
import { TestApp } from './test-app';

// Zones (issue 21, item 4): the rules of the tree, moving locks, the filters of the lock list, the
// activity, reports and the dashboard, another portal's ids refused everywhere, and a zone's lockout
// reaching the locks' credential sets (and following locks moved in and out).

let t: TestApp;
let owner: Awaited<ReturnType<typeof makeOwner>>;
let other: Awaited<ReturnType<typeof makeOwner>>;

beforeAll(async () => {
  t = await TestApp.start();
  owner = await makeOwner(t, { email: 'zones.owner@example.com' });
  other = await makeOwner(t, { email: 'zones.other@example.com', portalName: 'Other portal' });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const as = (token: string) => (method: Method, url: string, payload?: object) =>
  t.request({ method, url: `/api3/${url}`, token, ...(payload && { payload }) });
const api = (method: Method, url: string, payload?: object) => as(owner.token)(method, url, payload);

async function addLock(name: string, timeZone = 'UTC', token = owner.token) {
  const response = await as(token)('POST', 'portal/device/new', { name, model: 'latchkey-sim', timeZone });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().device._id as string;
}

async function addZone(
  name: string,
  extra: { parentId?: string; timeZone?: string } = {},
  token = owner.token,
) {
  const response = await as(token)('POST', 'portal/zone', { name, timeZone: 'Europe/Berlin', ...extra });
  expect(response.statusCode, response.body).toBe(201);
  return response.json()._id as string;
}

const lockNames = async (query: string) =>
  (await api('GET', `portal/devices?${query}`))
    .json()
    .items.map((d: { name: string }) => d.name)
    .sort();

describe('zones', () => {
  it('nests zones three deep at most, refuses cycles, twins and foreign parents', async () => {
    const site = await addZone('Campus');
    const building = await addZone('Hall A', { parentId: site });
    const floor = await addZone('Floor 1', { parentId: building });
    const tooDeep = await api('POST', 'portal/zone', { name: 'Room', timeZone: 'UTC', parentId: floor });
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.json().error.details[0].path).toBe('body.parentId');
    // A zone under its own sub-zone would be a circle.
    const circle = await api('POST', `portal/zone/${site}`, {
      name: 'Campus',
      timeZone: 'UTC',
      parentId: floor,
    });
    expect(circle.statusCode).toBe(400);
    // The same name twice in one place is a conflict; in another place it is fine.
    expect(
      (await api('POST', 'portal/zone', { name: 'hall a', timeZone: 'UTC', parentId: site })).statusCode,
    ).toBe(409);
    await addZone('Hall A');
    // Another portal's zone is no parent here.
    const foreign = await addZone('Elsewhere', {}, other.token);
    expect(
      (await api('POST', 'portal/zone', { name: 'X', timeZone: 'UTC', parentId: foreign })).statusCode,
    ).toBe(400);
    expect((await api('POST', 'portal/zone', { name: 'X', timeZone: 'Mars/Olympus' })).statusCode).toBe(400);

    const zones = (await api('GET', 'portal/zones')).json();
    // Parents before their sub-zones, with their depth.
    const campusAt = zones.findIndex((z: { _id: string }) => z._id === site);
    expect(
      zones.slice(campusAt, campusAt + 3).map((z: { name: string; depth: number }) => [z.name, z.depth]),
    ).toEqual([
      ['Campus', 1],
      ['Hall A', 2],
      ['Floor 1', 3],
    ]);
    // The other portal sees none of them.
    const theirs = (await as(other.token)('GET', 'portal/zones')).json();
    expect(theirs.map((z: { name: string }) => z.name)).toEqual(['Elsewhere']);
  });

  it('moves locks in bulk, one zone per lock, offers the zone time zone, filters the lists', async () => {
    const site = await addZone('Depot', { timeZone: 'America/New_York' });
    const wing = await addZone('Depot wing', { parentId: site, timeZone: 'America/New_York' });
    const gate = await addLock('Depot gate', 'UTC');
    const door = await addLock('Depot door', 'UTC');
    const shed = await addLock('Depot shed', 'UTC');
    const moved = await api('POST', `zone/${site}/devices`, { add: [gate, door], applyTimeZone: true });
    expect(moved.json()).toEqual({ added: 2, removed: 0, timeZoneChanged: 2 });
    expect((await api('GET', `portal/device/${gate}`)).json()).toMatchObject({
      timeZone: 'America/New_York',
      zoneId: site,
    });
    // Without applyTimeZone the lock keeps its clock; the zone counts it as different.
    await api('POST', `zone/${wing}/devices`, { add: [shed] });
    expect((await api('GET', `portal/device/${shed}`)).json().timeZone).toBe('UTC');
    expect((await api('GET', `portal/zone/${wing}`)).json()).toMatchObject({
      lockCount: 1,
      otherTimeZoneCount: 1,
    });
    expect((await api('GET', `portal/zone/${site}`)).json()).toMatchObject({
      lockCount: 2,
      totalLockCount: 3,
    });
    expect((await api('POST', `zone/${wing}/applyTimeZone`)).json()).toEqual({ changed: 1 });
    expect((await api('GET', `portal/device/${shed}`)).json().timeZone).toBe('America/New_York');

    // The lock list: a zone with its sub-zones, a sub-zone alone, and the locks in no zone.
    expect(await lockNames(`filterBy=zone&filterValue=${site}`)).toEqual([
      'Depot door',
      'Depot gate',
      'Depot shed',
    ]);
    expect(await lockNames(`filterBy=zone&filterValue=${wing}`)).toEqual(['Depot shed']);
    const loose = await addLock('Loose lock');
    expect(await lockNames('filterBy=zone&filterValue=none')).toContain('Loose lock');
    expect(await lockNames('filterBy=zone&filterValue=none')).not.toContain('Depot gate');

    // Moving a lock into another zone takes it out of the first: a lock is in one zone at most.
    await api('POST', `zone/${wing}/devices`, { add: [door] });
    expect(await lockNames(`filterBy=zone&filterValue=${wing}`)).toEqual(['Depot door', 'Depot shed']);
    expect((await api('GET', `zone/${site}/devices`)).json().map((d: { name: string }) => d.name)).toEqual([
      'Depot gate',
    ]);
    // Removing a lock that is not in the zone, or naming it both ways, is refused and changes nothing.
    expect((await api('POST', `zone/${site}/devices`, { remove: [loose] })).statusCode).toBe(400);
    expect((await api('POST', `zone/${site}/devices`, { add: [gate], remove: [gate] })).statusCode).toBe(400);
    expect((await api('POST', `zone/${site}/devices`, { remove: [gate] })).json()).toMatchObject({
      removed: 1,
    });
    expect((await api('GET', `portal/device/${gate}`)).json().zoneId).toBeNull();

    // Every move is in the change log.
    const log = (await api('GET', `portal/audit?filterBy=entityId&filterValue=${site}`)).json();
    expect(log.items.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['zone.create', 'zone.devices.move']),
    );
  });

  it("names every lock a zone change concerns, so each lock's history and the zone filter show it", async () => {
    const annex = await addZone('Annex', { timeZone: 'Europe/Lisbon' });
    const east = await addLock('Annex east', 'UTC');
    const west = await addLock('Annex west', 'UTC');
    const apart = await addLock('Annex apart', 'UTC');
    // Two locks at once (a single lock was named before; several were not), then a new clock.
    await api('POST', `zone/${annex}/devices`, { add: [east, west] });
    await api('POST', `portal/zone/${annex}`, { name: 'Annex', timeZone: 'Europe/Madrid' });
    expect((await api('POST', `zone/${annex}/applyTimeZone`)).json()).toEqual({ changed: 2 });
    const history = async (lock: string) =>
      (await api('GET', `device/${lock}/history?limit=50`))
        .json()
        .items.filter((item: { source: string }) => item.source === 'change')
        .map((item: { change: { action: string } }) => item.change.action);
    for (const lock of [east, west]) {
      expect(await history(lock)).toEqual(
        expect.arrayContaining(['zone.devices.move', 'zone.timezone.apply']),
      );
    }
    expect(await history(apart)).not.toContain('zone.devices.move');
    const feed = (await api('GET', `portal/activity?zoneId=${annex}&limit=50`)).json();
    expect(
      feed.items.map((item: { change?: { action: string } }) => item.change?.action).filter(Boolean),
    ).toEqual(expect.arrayContaining(['zone.devices.move', 'zone.timezone.apply']));
    // Deleting the zone unzones its locks: that too is in each one's history.
    expect((await api('DELETE', `portal/zone/${annex}`)).statusCode).toBe(204);
    expect(await history(east)).toContain('zone.delete');
    expect(await history(apart)).not.toContain('zone.delete');
  });

  it('filters the dashboard, the activity and reports by zone', async () => {
    const zone = await addZone('Annex');
    const inside = await addLock('Annex door');
    await addLock('Outside door');
    await api('POST', `zone/${zone}/devices`, { add: [inside] });
    const dashboard = (await api('GET', `portal/dashboard?zoneId=${zone}`)).json();
    expect(dashboard.counts.devices).toBe(1);
    expect(dashboard.offline.map((d: { name: string }) => d.name)).toEqual(['Annex door']);
    expect((await api('GET', 'portal/dashboard')).json().counts.devices).toBeGreaterThan(1);

    const activity = (await api('GET', `portal/activity?zoneId=${zone}`)).json();
    expect(activity.items.length).toBeGreaterThan(0);
    for (const item of activity.items) expect(item.device?._id ?? item.event?.device._id).toBe(inside);

    const report = await api('POST', 'portal/report', { kind: 'health', filters: { zoneId: zone } });
    expect(report.statusCode, report.body).toBe(200);
    expect(JSON.stringify(report.json().rows)).toContain('Annex door');
    expect(JSON.stringify(report.json().rows)).not.toContain('Outside door');
  });

  it("refuses another portal's zone ids everywhere, filters included, and never moves its locks", async () => {
    const mine = await addZone('Mine');
    const theirs = await addZone('Theirs', {}, other.token);
    const theirLock = await addLock('Their lock', 'UTC', other.token);
    const myLock = await addLock('My lock');
    for (const [method, url, payload] of [
      ['GET', `portal/zone/${theirs}`],
      ['POST', `portal/zone/${theirs}`, { name: 'Taken', timeZone: 'UTC' }],
      ['DELETE', `portal/zone/${theirs}`],
      ['GET', `zone/${theirs}/devices`],
      ['POST', `zone/${theirs}/devices`, { add: [myLock] }],
      ['POST', `zone/${theirs}/lockout`, { name: 'X', from: '2030-01-01T00:00:00Z' }],
      ['GET', `portal/devices?filterBy=zone&filterValue=${theirs}`],
      ['GET', `portal/dashboard?zoneId=${theirs}`],
      ['GET', `portal/activity?zoneId=${theirs}`],
      ['GET', `portal/activity/export?zoneId=${theirs}`],
      ['POST', 'portal/report', { kind: 'health', filters: { zoneId: theirs } }],
    ] as [Method, string, object?][]) {
      const response = await api(method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.body).not.toContain('Theirs');
    }
    // Their lock cannot be moved into my zone, nor mine into theirs.
    const stolen = await api('POST', `zone/${mine}/devices`, { add: [theirLock] });
    expect(stolen.statusCode).toBe(400);
    const row = await t.app.db
      .selectFrom('devices')
      .select('zone_id')
      .where('id', '=', theirLock)
      .executeTakeFirst();
    expect(row?.zone_id).toBeNull();
    expect((await as(other.token)('GET', `portal/zone/${theirs}`)).json().name).toBe('Theirs');
  });

  it('lets a basic user read the zones without lock counts, and nothing more', async () => {
    const zone = await addZone('Visible place');
    const member = await makeMember(t, owner.portalId, { email: 'zones.member@example.com' });
    const asMember = as(member.token);
    const listed = (await asMember('GET', 'portal/zones')).json();
    expect(listed.find((z: { _id: string }) => z._id === zone)).toMatchObject({ lockCount: null });
    expect((await asMember('POST', 'portal/zone', { name: 'Mine now', timeZone: 'UTC' })).statusCode).toBe(
      403,
    );
    expect((await asMember('GET', `zone/${zone}/devices`)).statusCode).toBe(403);
  });

  it("locks out a zone: a real lockout in the locks' credential sets that follows the zone", async () => {
    const building = await addZone('Lab building');
    const floor = await addZone('Lab floor', { parentId: building });
    const lab = await addLock('Lab door');
    const store = await addLock('Lab store');
    const later = await addLock('Lab annex');
    await api('POST', `zone/${building}/devices`, { add: [lab] });
    await api('POST', `zone/${floor}/devices`, { add: [store] });
    const empty = await addZone('Empty place');
    expect(
      (await api('POST', `zone/${empty}/lockout`, { name: 'Nothing', from: '2030-01-01T00:00:00Z' }))
        .statusCode,
    ).toBe(400);

    const created = await api('POST', `zone/${building}/lockout`, {
      name: 'Fumigation',
      from: '2026-01-01T00:00:00Z',
    });
    expect(created.statusCode, created.body).toBe(201);
    const lockout = created.json();
    expect(lockout).toMatchObject({ name: 'Fumigation', zoneId: building, active: true });
    expect(lockout.devices.map((d: { name: string }) => d.name).sort()).toEqual(['Lab door', 'Lab store']);
    // It is a lockout like any other: listed with the lockouts.
    const listed = (await api('GET', 'portal/lockouts')).json();
    expect(listed.items.map((l: { _id: string }) => l._id)).toContain(lockout._id);

    const lockoutsInSet = async (deviceId: string) =>
      ((await findDesiredSet(t.app.db, owner.portalId, deviceId))?.set.lockouts ?? []).map(
        (l) => l.lockoutId,
      );
    const eventually = async (deviceId: string, expected: boolean) => {
      const deadline = Date.now() + 15_000;
      while ((await lockoutsInSet(deviceId)).includes(lockout._id) !== expected) {
        if (Date.now() > deadline)
          throw new Error(`the lockout never ${expected ? 'reached' : 'left'} ${deviceId}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    await eventually(lab, true);
    await eventually(store, true);
    expect(await lockoutsInSet(later)).not.toContain(lockout._id);

    // A lock moved into the zone joins the lockout; one moved out leaves it.
    await api('POST', `zone/${floor}/devices`, { add: [later] });
    await eventually(later, true);
    await api('POST', `zone/${floor}/devices`, { remove: [store] });
    await eventually(store, false);
    const now = (await api('GET', `portal/lockout/${lockout._id}`)).json();
    expect(now.devices.map((d: { name: string }) => d.name).sort()).toEqual(['Lab annex', 'Lab door']);

    // Deleting the zone unzones its locks and keeps the lockout on the locks it covered.
    expect((await api('DELETE', `portal/zone/${building}`)).statusCode).toBe(204);
    expect((await api('GET', `portal/device/${lab}`)).json().zoneId).toBeNull();
    // Its sub-zone moved up.
    expect((await api('GET', `portal/zone/${floor}`)).json()).toMatchObject({ parentId: null, depth: 1 });
    const kept = (await api('GET', `portal/lockout/${lockout._id}`)).json();
    expect(kept).toMatchObject({ zoneId: null });
    expect(kept.devices.map((d: { name: string }) => d.name).sort()).toEqual(['Lab annex', 'Lab door']);
    expect(await lockoutsInSet(lab)).toContain(lockout._id);
  });
});

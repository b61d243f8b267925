import crypto from 'node:crypto';
import { formatDateTime, type ActivityPage } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordDeviceEvent } from '../src/features/events/events.repository';
import { makeTwoPortals, type TwoPortals } from './fixtures';
import { TestApp } from './test-app';

// The activity feed (issue 19, item 7): each change names its lock and person and, for a remote
// command, what the lock did; the feed narrows to a lock, a person and a kind; its CSV export takes
// the same filters, stays in the portal and cannot carry a formula into a spreadsheet.

let t: TestApp;
let portals: TwoPortals;
let sideDoor: string;

async function lockEvent(
  portalId: string,
  deviceId: string,
  type: 'unlock' | 'denied',
  userId: string | null,
) {
  await recordDeviceEvent(t.app.db, {
    portalId,
    deviceId,
    eventId: crypto.randomUUID(),
    type,
    method: type === 'unlock' ? 'rfid' : 'code',
    credentialId: null,
    userId,
    reason: type === 'denied' ? 'outside_schedule' : null,
    occurredAt: new Date().toISOString(),
  });
}

beforeAll(async () => {
  t = await TestApp.start();
  portals = await makeTwoPortals(t, { rentals: false });
  const created = await t.request({
    method: 'POST',
    url: '/api3/portal/device/new',
    token: portals.a.admin,
    // A name a spreadsheet would run as a formula, were the export to pass it on as it is.
    payload: {
      name: '=HYPERLINK("http://evil.example","Side door")',
      model: 'latchkey-sim',
      timeZone: 'UTC',
    },
  });
  sideDoor = created.json().device._id;
  await lockEvent(portals.a.portalId, portals.a.deviceId, 'unlock', portals.a.userId);
  await lockEvent(portals.a.portalId, sideDoor, 'denied', portals.a.userId);
  await lockEvent(portals.b.portalId, portals.b.deviceId, 'unlock', portals.b.userId);
  // A remote unlock the lock answered "jammed": the lock is online (its status says so), the
  // command is sent, and the lock's answer is written as the device link writes it.
  await t.app.db.updateTable('devices').set({ online: 1 }).where('id', '=', portals.a.deviceId).execute();
  const sent = await t.request({
    method: 'POST',
    url: `/api3/device/${portals.a.deviceId}/command`,
    token: portals.a.admin,
    payload: { action: 'unlock' },
  });
  expect(sent.statusCode, sent.body).toBe(202);
  await t.app.db
    .updateTable('device_commands')
    .set({ status: 'failed', error: 'jammed', answered_at: new Date().toISOString() })
    .where('id', '=', sent.json().commandId)
    .execute();
}, 60_000);
afterAll(() => t.close());

async function feed(query: Record<string, string>, token = portals.a.admin) {
  const response = await t.request({ method: 'GET', url: '/api3/portal/activity', query, token });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as ActivityPage).items;
}

describe('GET portal/activity', () => {
  it('names the lock, who sent a remote unlock, and that it failed', async () => {
    const items = await feed({ kind: 'command' });
    expect(items).toHaveLength(1);
    const item = items[0]!;
    expect(item.source).toBe('change');
    if (item.source !== 'change') return;
    expect(item.change.action).toBe('device.command.unlock');
    expect(item.device).toEqual({ _id: portals.a.deviceId, name: 'Front door' });
    expect(item.change.actor?.email).toBe(portals.a.adminEmail);
    expect(item.command).toEqual({ status: 'failed', error: 'jammed' });
  });

  it('names the person a change is about', async () => {
    const grants = (await feed({ kind: 'change', userId: portals.a.userId })).filter(
      (item) => item.source === 'change' && item.change.action === 'access.grant',
    );
    expect(grants).toHaveLength(1);
    const grant = grants[0]!;
    if (grant.source !== 'change') return;
    expect(grant.person?._id).toBe(portals.a.userId);
    expect(grant.device?.name).toBe('Front door');
  });

  it('narrows to a lock, a person and a kind', async () => {
    const atSide = await feed({ deviceId: sideDoor });
    expect(atSide.length).toBeGreaterThan(0);
    for (const item of atSide) {
      const lock = item.source === 'event' ? item.event.device._id : item.device?._id;
      expect(lock).toBe(sideDoor);
    }
    const denied = await feed({ kind: 'denied' });
    expect(denied.map((item) => item.source === 'event' && item.event.type)).toEqual(['denied']);
    const unlocks = await feed({ kind: 'unlock', userId: portals.a.userId, deviceId: portals.a.deviceId });
    expect(unlocks).toHaveLength(1);
    const changesOnly = await feed({ kind: 'change' });
    expect(
      changesOnly.every(
        (item) => item.source === 'change' && !item.change.action.startsWith('device.command.'),
      ),
    ).toBe(true);
  });

  it('shows nothing of another portal, whatever ids it is given', async () => {
    expect(await feed({ deviceId: portals.b.deviceId })).toEqual([]);
    expect(await feed({ userId: portals.b.userId })).toEqual([]);
    const all = await feed({ limit: '100' });
    expect(JSON.stringify(all)).not.toContain(portals.b.deviceId);
  });

  it('refuses an unknown kind or a malformed id (400)', async () => {
    const bad: Record<string, string>[] = [{ kind: 'everything' }, { deviceId: '../etc' }, { userId: 'a b' }];
    for (const query of bad) {
      const response = await t.request({
        method: 'GET',
        url: '/api3/portal/activity',
        query,
        token: portals.a.admin,
      });
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
    }
  });
});

describe('GET user/{id}/history', () => {
  it('shows a basic user the changes about them, without the address the admin worked from', async () => {
    const url = `/api3/user/${portals.a.userId}/history`;
    const changes = (page: ActivityPage) =>
      page.items.flatMap((item) => (item.source === 'change' ? [item.change] : []));
    const asAdmin = await t.request({ method: 'GET', url, token: portals.a.admin });
    expect(asAdmin.statusCode, asAdmin.body).toBe(200);
    expect(changes(asAdmin.json()).some((change) => change.ip !== null)).toBe(true);
    const asSelf = await t.request({ method: 'GET', url, token: portals.a.user });
    expect(asSelf.statusCode, asSelf.body).toBe(200);
    const own = changes(asSelf.json());
    expect(own.map((change) => change._id)).toEqual(changes(asAdmin.json()).map((change) => change._id));
    expect(own.every((change) => change.ip === null)).toBe(true);
  });
});

describe('GET portal/activity/export', () => {
  async function csv(query: Record<string, string>, token = portals.a.admin) {
    const response = await t.request({ method: 'GET', url: '/api3/portal/activity/export', query, token });
    return response;
  }

  it('answers the filtered feed as CSV, with formula-looking cells escaped', async () => {
    const response = await csv({ deviceId: sideDoor });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toContain('activity.csv');
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'time (portal clock),time zone,source,what,lock,person,by,result,detail,instant (UTC)',
    );
    // The lock's creation (a change) and its refused attempt, nothing of the front door.
    expect(lines.length).toBe(3);
    expect(response.body).not.toContain('Front door');
    const denied = lines.find((line) => line.includes(',denied,'))!;
    expect(denied).toContain(`"'=HYPERLINK(""http://evil.example"",""Side door"")"`);
    expect(denied).toContain('denied: outside_schedule');
    for (const line of lines.slice(1)) {
      for (const cell of line.split(',')) expect(cell).not.toMatch(/^"?[=+\-@]/);
    }
  });

  it('takes the kind filter: only the failed remote unlock', async () => {
    const lines = (await csv({ kind: 'command' })).body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(
      /,change,Remote unlock sent,Front door,,.*,failed: jammed,device\.command\.unlock,[0-9T:.-]+Z$/,
    );
  });

  it("writes each time on the portal's clock, names the zone, and ends with the instant in UTC", async () => {
    const { time_zone: before } = await t.app.db
      .selectFrom('portals')
      .select('time_zone')
      .where('id', '=', portals.a.portalId)
      .executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('portals')
      .set({ time_zone: 'Asia/Kolkata' })
      .where('id', '=', portals.a.portalId)
      .execute();
    try {
      const lines = (await csv({})).body.trimEnd().split('\r\n').slice(1);
      expect(lines.length).toBeGreaterThan(2);
      for (const line of lines) {
        // "Nov 28, 2026, 19:33" is quoted (it holds commas); the instant is the last cell.
        const [, time, rest] = /^"([^"]+)",(.*)$/.exec(line)!;
        const instant = rest!.slice(rest!.lastIndexOf(',') + 1);
        expect(rest!.startsWith('Asia/Kolkata,')).toBe(true);
        expect(instant).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(time).toBe(formatDateTime(instant, 'Asia/Kolkata'));
      }
    } finally {
      await t.app.db
        .updateTable('portals')
        .set({ time_zone: before })
        .where('id', '=', portals.a.portalId)
        .execute();
    }
  });

  it('holds nothing of another portal, and is for admins', async () => {
    const all = await csv({});
    expect(all.statusCode).toBe(200);
    expect(all.body).not.toContain(portals.b.deviceId);
    expect((await csv({ deviceId: portals.b.deviceId })).body.trimEnd().split('\r\n')).toHaveLength(1);
    expect((await csv({}, portals.a.user)).statusCode).toBe(403);
    expect((await csv({ kind: 'nope' })).statusCode).toBe(400);
  });
});

describe('paging by time', () => {
  it('loses no item that shares its instant with the end of a page', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: portals.a.admin,
      payload: { name: 'Paging door', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    const lock = created.json().device._id as string;
    // What one change writes: several entries at one instant (an invitation's membership, grant
    // and group join), here four about this lock, between two of its own entries and an event.
    const instant = new Date(Date.now() - 60_000).toISOString();
    const sameInstant = ['member.invite', 'access.grant', 'group.user.add', 'schedule.set'].map((action) => ({
      id: crypto.randomUUID(),
      action,
    }));
    for (const { id, action } of sameInstant) {
      await t.app.db
        .insertInto('audit_log')
        .values({
          id,
          portal_id: portals.a.portalId,
          actor_user_id: null,
          action,
          entity_type: 'member',
          entity_id: portals.a.userId,
          device_id: lock,
          user_id: portals.a.userId,
          created_at: instant,
        })
        .execute();
      await t.app.db
        .insertInto('audit_log_devices')
        .values({ audit_id: id, portal_id: portals.a.portalId, device_id: lock, created_at: instant })
        .execute();
    }
    await recordDeviceEvent(t.app.db, {
      portalId: portals.a.portalId,
      deviceId: lock,
      eventId: 'same-instant-event',
      type: 'unlock',
      method: 'remote',
      credentialId: null,
      userId: portals.a.userId,
      reason: null,
      occurredAt: instant,
    });
    for (const limit of [1, 2, 3]) {
      for (const url of [`/api3/device/${lock}/history`, '/api3/portal/activity']) {
        const seen: string[] = [];
        let before: string | null = null;
        for (let pages = 0; pages < 50; pages += 1) {
          const query: Record<string, string> = { limit: String(limit), ...(before && { before }) };
          if (url === '/api3/portal/activity') query.deviceId = lock;
          const response = await t.request({ method: 'GET', url, query, token: portals.a.admin });
          expect(response.statusCode, response.body).toBe(200);
          const page = response.json() as ActivityPage;
          seen.push(
            ...page.items.map((item) => (item.source === 'change' ? item.change._id : item.event.eventId)),
          );
          before = page.nextBefore;
          if (!before) break;
        }
        // The lock's creation, the four entries of one instant and the event: each once.
        expect(new Set(seen).size, `${url} limit ${limit}`).toBe(seen.length);
        expect(seen, `${url} limit ${limit}`).toEqual(
          expect.arrayContaining([...sameInstant.map(({ id }) => id), 'same-instant-event']),
        );
        expect(seen).toHaveLength(6);
      }
    }
  });
});

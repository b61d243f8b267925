import type { ActivityPage } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMember, makeOwner } from './factories';
import { TestApp } from './test-app';

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeOwner>>;

beforeAll(async () => {
  t = await TestApp.start();
  admin = await makeOwner(t, { email: 'operator@example.com', firstName: 'Olive' });
});
afterAll(() => t.close());

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.request({ method, url: `/api3/${url}`, token: admin.token, ...(payload && { payload }) });

async function addLock(name: string, timeZone = 'America/New_York', model = 'latchkey-sim') {
  const response = await api('POST', 'portal/device/new', { name, model, timeZone });
  expect(response.statusCode).toBe(201);
  return response.json().device._id as string;
}

/** A person who has joined the portal (as after accepting an invitation); answers their session too. */
async function addPerson(email: string, extra: { lastName?: string; role?: 'admin' | 'user' } = {}) {
  const { userId, token } = await makeMember(t, admin.portalId, {
    email,
    firstName: email.split('@')[0],
    ...extra,
  });
  return { member: { _id: userId }, token };
}

describe('locks', () => {
  it('adds a lock with a one-time secret, lists, searches, renames and deletes it', async () => {
    const created = await api('POST', 'portal/device/new', {
      name: 'Back gate',
      model: 'generic-codelock',
      timeZone: 'Europe/Berlin',
      serial: 'SN-42',
    });
    expect(created.statusCode).toBe(201);
    const { device, deviceSecret } = created.json();
    expect(deviceSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(device).toMatchObject({ name: 'Back gate', online: false, battery: null, lowBatteryLevel: 20 });
    expect(JSON.stringify((await api('GET', `portal/device/${device._id}`)).json())).not.toContain(
      deviceSecret,
    );

    const found = (await api('GET', 'portal/devices?search=BACK')).json();
    expect(found.items.map((d: { _id: string }) => d._id)).toEqual([device._id]);
    const bySerial = (await api('GET', 'portal/devices?search=sn-4')).json();
    expect(bySerial.total).toBe(1);

    const renamed = await api('POST', `portal/device/${device._id}`, {
      name: 'Rear gate',
      lowBatteryLevel: 30,
    });
    expect(renamed.json()).toMatchObject({ name: 'Rear gate', lowBatteryLevel: 30 });

    expect((await api('DELETE', `portal/device/${device._id}`)).statusCode).toBe(204);
    expect((await api('GET', `portal/device/${device._id}`)).statusCode).toBe(404);
    expect((await api('GET', 'portal/devices?search=gate')).json().total).toBe(0);
  });

  it.each([
    [{ name: '', model: 'latchkey-sim', timeZone: 'UTC' }, 'body.name'],
    [{ name: 'X', model: 'toaster', timeZone: 'UTC' }, 'body.model'],
    [{ name: 'X', model: 'latchkey-sim', timeZone: 'Moon/Base' }, 'body.timeZone'],
  ])('refuses %j with a 400 naming the field', async (payload, field) => {
    const response = await api('POST', 'portal/device/new', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('pages and sorts the list with allow-listed fields only', async () => {
    for (const name of ['Aa', 'Bb', 'Cc']) await addLock(`Sort ${name}`);
    const page = (await api('GET', 'portal/devices?search=sort&sortBy=name&descending=true&limit=2')).json();
    expect(page.total).toBe(3);
    expect(page.items.map((d: { name: string }) => d.name)).toEqual(['Sort Cc', 'Sort Bb']);
    expect((await api('GET', 'portal/devices?sortBy=secret_hash')).statusCode).toBe(400);
  });
});

describe('people', () => {
  it('adds a new person by invitation: they choose their password from the mail and join', async () => {
    const added = await api('POST', 'portal/user', { email: 'New.Person@example.com', firstName: 'Nell' });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toEqual({
      member: expect.objectContaining({
        email: 'new.person@example.com',
        firstName: 'Nell',
        status: 'invited',
      }),
    });
    const { member } = added.json();
    expect((await t.login('new.person@example.com', 'a sturdy passphrase')).statusCode).toBe(401);
    const answer = await t.request({
      method: 'POST',
      url: '/api3/user/inviteResponse',
      payload: t.seal({
        token: await t.invitationToken('new.person@example.com'),
        accept: true,
        password: 'nell passphrase 1',
      }),
    });
    expect(answer.json().session.token).toEqual(expect.any(String));
    expect((await t.login('new.person@example.com', 'nell passphrase 1')).statusCode).toBe(200);
    const detail = (await api('GET', `portal/user/${member._id}`)).json();
    expect(detail).toMatchObject({
      member: { email: 'new.person@example.com', firstName: 'Nell', role: 'user', status: 'active' },
      accessCode: null,
    });
  });

  it('invites an existing account without touching its password, and refuses a second time', async () => {
    const existing = await t.signUp({ email: 'existing@example.com', password: 'their own passphrase' });
    const added = await api('POST', 'portal/user', { email: 'Existing@Example.com' });
    expect(added.json().member).toMatchObject({ _id: existing.userId, status: 'invited' });
    expect((await t.login('existing@example.com', 'their own passphrase')).statusCode).toBe(200);
    const again = await api('POST', 'portal/user', { email: 'existing@example.com' });
    expect(again.statusCode).toBe(409);
  });

  it('changes role and name, and protects the owner', async () => {
    const { member } = await addPerson('promote@example.com');
    const promoted = await api('POST', `portal/user/${member._id}`, { role: 'admin', lastName: 'Boss' });
    expect(promoted.json()).toMatchObject({ role: 'admin', lastName: 'Boss' });
    expect((await api('POST', `portal/user/${admin.userId}`, { role: 'user' })).statusCode).toBe(409);
    expect((await api('POST', `portal/user/${admin.userId}/suspended`)).statusCode).toBe(409);
    expect((await api('DELETE', `portal/user/${admin.userId}`)).statusCode).toBe(409);
    expect((await api('POST', `portal/user/${member._id}/retired`)).statusCode).toBe(400);
  });

  it('suspends a person, which ends their acting in the portal, and reactivates them', async () => {
    const { member, token } = await addPerson('suspend.me@example.com', { role: 'admin' });
    const portalHeader = { portal: admin.portalId, token };
    expect(
      (await t.request({ method: 'GET', url: '/api3/portal/dashboard', ...portalHeader })).statusCode,
    ).toBe(200);

    expect((await api('POST', `portal/user/${member._id}/suspended`)).json().status).toBe('suspended');
    expect(
      (await t.request({ method: 'GET', url: '/api3/portal/dashboard', ...portalHeader })).statusCode,
    ).toBe(403);

    expect((await api('POST', `portal/user/${member._id}/active`)).json().status).toBe('active');
    expect(
      (await t.request({ method: 'GET', url: '/api3/portal/dashboard', ...portalHeader })).statusCode,
    ).toBe(200);
  });

  it('removes a person with their links and code', async () => {
    const { member } = await addPerson('leaver@example.com');
    const lock = await addLock('Leaver door');
    await api('PUT', `user/${member._id}/device/${lock}`);
    await api('POST', 'user/accessCode', { userId: member._id, code: '90817263' });
    expect((await api('DELETE', `portal/user/${member._id}`)).statusCode).toBe(204);
    expect((await api('GET', `portal/user/${member._id}`)).statusCode).toBe(404);
    expect((await api('GET', `device/${lock}/users`)).json()).toEqual([]);
    // The code is free again for someone else.
    const other = await addPerson('newcomer@example.com');
    expect(
      (await api('POST', 'user/accessCode', { userId: other.member._id, code: '90817263' })).statusCode,
    ).toBe(200);
  });
});

describe('access codes', () => {
  it('sets, replaces and clears a code', async () => {
    const { member } = await addPerson('coder@example.com');
    expect((await api('POST', 'user/accessCode', { userId: member._id, code: '1234' })).json()).toEqual({
      accessCode: '1234',
    });
    expect((await api('POST', 'user/accessCode', { userId: member._id, code: '5678' })).statusCode).toBe(200);
    expect((await api('GET', `portal/user/${member._id}`)).json().accessCode).toBe('5678');
    expect((await api('POST', 'user/accessCode', { userId: member._id, code: null })).json()).toEqual({
      accessCode: null,
    });
    expect((await api('GET', `portal/user/${member._id}`)).json().accessCode).toBeNull();
  });

  it.each([
    ['12a4', 'must be digits only'],
    ['123', 'must be 4 to 12 digits long'],
    ['1234567890123', 'must be 4 to 12 digits long'],
  ])('refuses %s: %s', async (code, message) => {
    const { member } = await addPerson(`bad-${code}@example.com`);
    const response = await api('POST', 'user/accessCode', { userId: member._id, code });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual([{ path: 'body.code', message }]);
  });

  it('refuses a code someone else holds, and one longer than a reachable keypad model takes', async () => {
    const first = await addPerson('first.holder@example.com');
    const second = await addPerson('second.holder@example.com');
    await api('POST', 'user/accessCode', { userId: first.member._id, code: '246813' });
    const taken = await api('POST', 'user/accessCode', { userId: second.member._id, code: '246813' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error.details[0].message).toMatch(/already used by someone else/);

    const keypad = await addLock('Keypad shed', 'UTC', 'generic-codelock');
    await api('PUT', `user/${second.member._id}/device/${keypad}`);
    const tooLong = await api('POST', 'user/accessCode', { userId: second.member._id, code: '1357924680' });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.details[0].message).toMatch(/4 to 8 digits long for the lock "Keypad shed"/);
  });
});

describe('who can open a lock', () => {
  it('follows groups, schedules in the lock time zone, and suspension', async () => {
    const frontDoor = await addLock('Front door', 'America/New_York');
    const garage = await addLock('Garage', 'America/New_York');
    const { member } = await addPerson('cleaner@example.com', { lastName: 'Clean' });
    const group = (
      await api('POST', 'portal/group', { name: 'Cleaning crew', description: 'Weekday mornings' })
    ).json();
    for (const url of [
      `group/${group._id}/user/${member._id}`,
      `group/${group._id}/device/${frontDoor}`,
      `group/${group._id}/device/${garage}`,
    ]) {
      expect((await api('PUT', url)).statusCode).toBe(204);
    }
    expect((await api('GET', `portal/group/${group._id}`)).json()).toMatchObject({
      userCount: 1,
      deviceCount: 2,
    });
    const users = (await api('GET', `device/${frontDoor}/users`)).json();
    expect(users).toEqual([
      expect.objectContaining({
        _id: member._id,
        schedule: null,
        via: { direct: false, groups: [{ _id: group._id, name: 'Cleaning crew' }] },
      }),
    ]);

    const weekdays = { windows: [{ days: [1, 2, 3, 4, 5], start: '08:00', end: '12:00' }] };
    const set = await api('POST', `portal/device/${frontDoor}/schedule/${member._id}`, {
      schedule: weekdays,
    });
    expect(set.json()).toEqual({ schedule: weekdays });
    // The lock's history finds changes about it recorded on other entities: the group link, the schedule.
    const lockHistory = (
      await api(
        'GET',
        `portal/audit?filterBy=deviceId&filterValue=${frontDoor}&sortBy=createdAt&descending=true`,
      )
    ).json();
    expect(lockHistory.items.map((entry: { action: string }) => entry.action)).toEqual([
      'schedule.set',
      'group.device.add',
      'device.create',
    ]);
    await api('POST', 'user/accessCode', { userId: member._id, code: '7531' });

    const at = (iso: string) => api('GET', `portal/device/${frontDoor}/access?at=${encodeURIComponent(iso)}`);
    const cleaner = (body: { people: { _id: string }[] }) => body.people.find((p) => p._id === member._id);
    // Monday 2026-11-23 09:30 in New York is 14:30Z (EST).
    const inside = (await at('2026-11-23T14:30:00Z')).json();
    expect(inside.localTime).toBe('Mon 2026-11-23 09:30');
    expect(cleaner(inside)).toMatchObject({ canOpen: true, reason: null, credentials: ['remote', 'code'] });
    expect(cleaner((await at('2026-11-23T17:30:00Z')).json())).toMatchObject({
      canOpen: false,
      reason: 'outside_schedule',
    });
    expect(cleaner((await at('2026-11-22T14:30:00Z')).json())).toMatchObject({
      canOpen: false,
      reason: 'outside_schedule',
    });
    // The garage has no schedule for them: any time.
    const garageAccess = (await api('GET', `portal/device/${garage}/access?at=2026-11-22T03:00:00Z`)).json();
    expect(cleaner(garageAccess)).toMatchObject({ canOpen: true });

    // The same answers from the person's side: each of their locks at an instant.
    const accessTime = (await api('GET', `user/${member._id}/accessTime?at=2026-11-23T17:30:00Z`)).json();
    expect(accessTime).toEqual({
      at: '2026-11-23T17:30:00.000Z',
      locks: [
        expect.objectContaining({
          name: 'Front door',
          localTime: 'Mon 2026-11-23 12:30',
          schedule: weekdays,
          canOpen: false,
          reason: 'outside_schedule',
          credentials: ['remote', 'code'],
          // Never connected: the person sees that a change has not reached it.
          online: false,
          lastSeenAt: null,
        }),
        expect.objectContaining({ name: 'Garage', schedule: null, canOpen: true, reason: null }),
      ],
    });
    expect((await api('GET', `user/${member._id}/accessTime?at=soon`)).statusCode).toBe(400);
    // The person's history finds the changes about them, whatever entity they were recorded on.
    const personHistory = (
      await api(
        'GET',
        `portal/audit?filterBy=userId&filterValue=${member._id}&sortBy=createdAt&descending=true`,
      )
    ).json();
    expect(personHistory.items.map((entry: { action: string }) => entry.action)).toEqual(
      expect.arrayContaining(['access_code.set', 'schedule.set', 'group.user.add']),
    );
    expect(
      personHistory.items.every((entry: { action: string }) => entry.action !== 'group.device.add'),
    ).toBe(true);

    await api('POST', `portal/user/${member._id}/suspended`);
    expect(cleaner((await at('2026-11-23T14:30:00Z')).json())).toMatchObject({
      canOpen: false,
      reason: 'suspended',
    });
    await api('POST', `portal/user/${member._id}/active`);

    // Leaving the group takes the access away; the schedule needs access to be set.
    await api('DELETE', `group/${group._id}/user/${member._id}`);
    expect(cleaner((await at('2026-11-23T14:30:00Z')).json())).toBeUndefined();
    const orphan = await api('POST', `portal/device/${frontDoor}/schedule/${member._id}`, {
      schedule: weekdays,
    });
    expect(orphan.statusCode).toBe(400);
    expect(orphan.json().error.message).toMatch(/has no access to Front door/);
  });

  it('refuses malformed schedules and times', async () => {
    const lock = await addLock('Schedule checks');
    const { member } = await addPerson('sched@example.com');
    await api('PUT', `user/${member._id}/device/${lock}`);
    for (const schedule of [
      { windows: [] },
      { windows: [{ days: [7], start: '08:00', end: '12:00' }] },
      { windows: [{ days: [1], start: '8am', end: '12:00' }] },
      { windows: [{ days: [1], start: '08:00', end: '08:00' }] },
      {
        windows: [{ days: [1], start: '08:00', end: '12:00' }],
        startDate: '2026-12-01',
        endDate: '2026-11-01',
      },
    ]) {
      const response = await api('POST', `portal/device/${lock}/schedule/${member._id}`, { schedule });
      expect(response.statusCode, JSON.stringify(schedule)).toBe(400);
    }
    expect((await api('GET', `portal/device/${lock}/access?at=yesterday`)).statusCode).toBe(400);
  });

  it("lets a basic user read their own locks, access and code, and nobody else's", async () => {
    const lock = await addLock('Cellar');
    const { member, token } = await addPerson('self.reader@example.com', { role: 'user' });
    const { member: other } = await addPerson('someone.else@example.com', { role: 'user' });
    await api('PUT', `user/${member._id}/device/${lock}`);
    await api('POST', 'user/accessCode', { userId: member._id, code: '860412' });
    const asThem = (url: string) => t.request({ method: 'GET', url: `/api3/${url}`, token });

    expect((await asThem(`user/${member._id}/devices`)).json()).toEqual([
      expect.objectContaining({ name: 'Cellar', schedule: null }),
    ]);
    expect((await asThem(`user/${member._id}/accessTime`)).json().locks).toEqual([
      expect.objectContaining({ name: 'Cellar', canOpen: true }),
    ]);
    expect((await asThem(`portal/user/${member._id}`)).json()).toMatchObject({ accessCode: '860412' });
    for (const url of [
      `user/${other._id}/devices`,
      `user/${other._id}/accessTime`,
      `portal/user/${other._id}`,
    ]) {
      expect((await asThem(url)).statusCode, url).toBe(403);
    }
  });

  it('lists direct access for a person and takes it away', async () => {
    const lock = await addLock('Direct door');
    const { member } = await addPerson('direct@example.com');
    expect(
      (await api('GET', `device/${lock}/possibleUsers`)).json().map((u: { _id: string }) => u._id),
    ).toContain(member._id);
    await api('PUT', `user/${member._id}/device/${lock}`);
    await api('PUT', `user/${member._id}/device/${lock}`);
    const devices = (await api('GET', `user/${member._id}/devices`)).json();
    expect(devices).toEqual([
      expect.objectContaining({ _id: lock, via: { direct: true, groups: [] }, schedule: null }),
    ]);
    expect(
      (await api('GET', `device/${lock}/possibleUsers`)).json().map((u: { _id: string }) => u._id),
    ).not.toContain(member._id);
    await api('DELETE', `user/${member._id}/device/${lock}`);
    expect((await api('GET', `user/${member._id}/devices`)).json()).toEqual([]);
  });
});

describe('change log', () => {
  it('records admin changes with who, before and after, filterable and never the code', async () => {
    const log = (query: string) => api('GET', `portal/audit?${query}`).then((r) => r.json());
    const devices = await log('filterBy=entityType&filterValue=device&limit=200');
    expect(devices.items.map((e: { action: string }) => e.action)).toContain('device.create');
    expect(devices.items.every((e: { entityType: string }) => e.entityType === 'device')).toBe(true);
    expect(devices.items[0].actor).toMatchObject({ _id: admin.userId, email: 'operator@example.com' });

    const codes = await log('filterBy=entityType&filterValue=access_code&limit=200');
    expect(codes.total).toBeGreaterThan(0);
    expect(JSON.stringify(codes)).not.toMatch(/7531|5678|246813/);

    const future = await log(`fromDate=${encodeURIComponent('2999-01-01T00:00:00Z')}`);
    expect(future.total).toBe(0);
    const oldestFirst = await log('sortBy=createdAt&descending=false&limit=1');
    expect(oldestFirst.items[0].action).toBe('device.create');
  });

  it("names on each entry every lock the change to access touched, so each lock's history shows it", async () => {
    const north = await addLock('History north');
    const south = await addLock('History south');
    const elsewhere = await addLock('History elsewhere');
    const noKeypad = await addLock('History no keypad', 'America/New_York', 'generic-nokeypad');
    const { member } = await addPerson('history.person@example.com');
    const group = (await api('POST', 'portal/group', { name: 'History crew' })).json();
    for (const url of [`group/${group._id}/device/${north}`, `group/${group._id}/device/${south}`]) {
      expect((await api('PUT', url)).statusCode).toBe(204);
    }
    // Joining the group changes who can open both of its locks, and no other.
    expect((await api('PUT', `group/${group._id}/user/${member._id}`)).statusCode).toBe(204);
    // A company code opens every keypad lock of the portal, and only those.
    const code = await api('POST', 'portal/code/company', { name: 'History code', code: '86420975' });
    expect(code.statusCode, code.body).toBe(201);
    const changes = async (lock: string) =>
      (await api('GET', `device/${lock}/history?limit=100`))
        .json()
        .items.filter((item: { source: string }) => item.source === 'change')
        .map((item: { change: { action: string; entityId: string } }) => item.change);
    for (const lock of [north, south]) {
      expect(await changes(lock)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ action: 'group.user.add', entityId: group._id }),
          expect.objectContaining({ action: 'company_code.create', entityId: code.json()._id }),
        ]),
      );
    }
    const other = await changes(elsewhere);
    expect(other.some((change: { action: string }) => change.action === 'group.user.add')).toBe(false);
    expect(other.some((change: { entityId: string }) => change.entityId === code.json()._id)).toBe(true);
    expect(
      (await changes(noKeypad)).some((change: { entityId: string }) => change.entityId === code.json()._id),
    ).toBe(false);
    // Once, however many ways the change named the lock (its own entry and the touched locks).
    const northIds = (await changes(north)).map((change: { _id: string }) => change._id);
    expect(new Set(northIds).size).toBe(northIds.length);
    // An entry that names its lock keeps to it: a grant on the north lock is not the south's.
    expect((await api('PUT', `user/${member._id}/device/${north}`)).statusCode).toBe(204);
    expect((await changes(north)).map((change: { action: string }) => change.action)).toContain(
      'access.grant',
    );
    expect((await changes(south)).map((change: { action: string }) => change.action)).not.toContain(
      'access.grant',
    );
    // Adding a person with a lock and a group at once: the group join is about the group's locks,
    // the grant about its lock, the membership about both.
    const added = await api('POST', 'portal/user', {
      email: 'history.added@example.com',
      firstName: 'Hal',
      deviceIds: [elsewhere],
      groupIds: [group._id],
    });
    expect(added.statusCode, added.body).toBe(201);
    const addedId = added.json().member?._id ?? added.json()._id;
    const about = async (lock: string) =>
      (await changes(lock)).filter((change: { entityId: string; action: string }) =>
        [group._id, elsewhere, addedId].includes(change.entityId),
      );
    const actionsAbout = async (lock: string, since: number) =>
      (await about(lock))
        .filter((change: { createdAt: string }) => Date.parse(change.createdAt) >= since)
        .map((change: { action: string }) => change.action);
    const since = Date.now() - 60_000;
    expect(await actionsAbout(elsewhere, since)).not.toContain('group.user.add');
    expect(await actionsAbout(north, since)).not.toContain('access.grant');
    // A key linked to one more lock is about that lock, not the one it already opened.
    const key = await api('POST', 'portal/keys', {
      name: 'History key',
      type: 'physical',
      number: 'H-1',
      deviceIds: [north],
    });
    expect(key.statusCode, key.body).toBe(201);
    expect((await api('PUT', `keys/${key.json()._id}/device/${south}`)).statusCode).toBe(200);
    const keyActions = async (lock: string) =>
      (await changes(lock))
        .filter((change: { entityId: string }) => change.entityId === key.json()._id)
        .map((change: { action: string }) => change.action);
    expect(await keyActions(north)).toEqual(['key.create']);
    expect(await keyActions(south)).toEqual(['key.link_device']);
    // A suspension is on each lock the person could open, and says whom it suspended.
    expect((await api('POST', `portal/user/${member._id}/suspended`)).statusCode).toBe(200);
    const suspension = (await changes(south)).find(
      (change: { action: string }) => change.action === 'member.suspend',
    );
    expect(suspension).toMatchObject({ after: { status: 'suspended' } });
    expect(suspension.after.name).toMatch(/^history\.person/);
  });
});

describe('lockouts', () => {
  it('blocks the chosen locks for the period, letting admins through only when exempt', async () => {
    const vault = await addLock('Vault', 'Europe/Rome');
    const lobby = await addLock('Lobby', 'UTC');
    const { member } = await addPerson('lockout.user@example.com');
    const manager = await addPerson('lockout.admin@example.com', { role: 'admin' });
    for (const userId of [member._id, manager.member._id]) {
      await api('PUT', `user/${userId}/device/${vault}`);
      await api('PUT', `user/${userId}/device/${lobby}`);
    }
    const created = await api('POST', 'portal/lockout', {
      name: 'Audit week',
      from: '2026-12-01T00:00:00Z',
      until: '2026-12-08T00:00:00Z',
      exemptAdmins: true,
      deviceIds: [vault],
    });
    expect(created.statusCode).toBe(201);
    const lockout = created.json();
    expect(lockout).toMatchObject({
      name: 'Audit week',
      exemptAdmins: true,
      active: false,
      // With its zone: the screens show the lockout's times on the lock's clock.
      devices: [{ _id: vault, name: 'Vault', timeZone: 'Europe/Rome' }],
    });

    const opens = async (lock: string, at: string) =>
      Object.fromEntries(
        (await api('GET', `portal/device/${lock}/access?at=${at}`))
          .json()
          .people.map((p: { email: string; canOpen: boolean; reason: string | null }) => [
            p.email,
            p.reason ?? 'open',
          ]),
      );
    expect(await opens(vault, '2026-12-03T12:00:00Z')).toEqual({
      'lockout.user@example.com': 'lockout',
      'lockout.admin@example.com': 'open',
    });
    expect(await opens(vault, '2026-12-08T00:00:00Z')).toEqual({
      'lockout.user@example.com': 'open',
      'lockout.admin@example.com': 'open',
    });
    expect(await opens(lobby, '2026-12-03T12:00:00Z')).toEqual({
      'lockout.user@example.com': 'open',
      'lockout.admin@example.com': 'open',
    });
    // Who can open names the lockouts in effect at that instant (the lock page's header).
    const inEffect = async (lock: string, at: string) =>
      (await api('GET', `portal/device/${lock}/access?at=${at}`)).json().lockouts;
    expect(await inEffect(vault, '2026-12-03T12:00:00Z')).toEqual([
      { _id: lockout._id, name: 'Audit week', until: '2026-12-08T00:00:00.000Z', exemptAdmins: true },
    ]);
    expect(await inEffect(vault, '2026-12-08T00:00:00Z')).toEqual([]);
    expect(await inEffect(lobby, '2026-12-03T12:00:00Z')).toEqual([]);

    const tightened = await api('POST', `portal/lockout/${lockout._id}`, {
      name: 'Audit week',
      from: '2026-12-01T00:00:00Z',
      until: null,
      exemptAdmins: false,
      deviceIds: [vault, lobby],
    });
    expect(tightened.json()).toMatchObject({ until: null, exemptAdmins: false });
    expect(await opens(lobby, '2027-06-01T00:00:00Z')).toEqual({
      'lockout.user@example.com': 'lockout',
      'lockout.admin@example.com': 'lockout',
    });

    const upcoming = (await api('GET', 'portal/lockouts?filterBy=state&filterValue=upcoming')).json();
    expect(upcoming.items.map((l: { _id: string }) => l._id)).toContain(lockout._id);
    expect((await api('GET', 'portal/lockouts?filterBy=state&filterValue=soon')).statusCode).toBe(400);

    expect((await api('DELETE', `portal/lockout/${lockout._id}`)).statusCode).toBe(204);
    expect(await opens(lobby, '2027-06-01T00:00:00Z')).toEqual({
      'lockout.user@example.com': 'open',
      'lockout.admin@example.com': 'open',
    });

    // Each lock's history, and the activity feed narrowed to it, name the lockouts that covered it:
    // the Vault from its creation, the Lobby from the change that added it.
    const lockoutChanges = async (lock: string) => {
      const history = (await api('GET', `device/${lock}/history?limit=50`)).json();
      const feed = (await api('GET', `portal/activity?deviceId=${lock}&limit=50`)).json();
      const ofLockouts = (page: ActivityPage) =>
        page.items.flatMap((item) =>
          item.source === 'change' && item.change.action.startsWith('lockout.') ? [item.change.action] : [],
        );
      expect(ofLockouts(feed)).toEqual(ofLockouts(history));
      return ofLockouts(history);
    };
    expect(await lockoutChanges(vault)).toEqual(['lockout.delete', 'lockout.update', 'lockout.create']);
    expect(await lockoutChanges(lobby)).toEqual(['lockout.delete', 'lockout.update']);
    const elsewhere = await addLock('Not covered', 'UTC');
    expect(await lockoutChanges(elsewhere)).toEqual([]);
  });

  it('refuses bad periods and locks from elsewhere', async () => {
    const lock = await addLock('Period checks', 'UTC');
    const base = { name: 'X', from: '2026-12-02T00:00:00Z', deviceIds: [lock] };
    for (const payload of [
      { ...base, until: '2026-12-01T00:00:00Z' },
      { ...base, deviceIds: [] },
      { ...base, deviceIds: ['not-a-lock-here'] },
      { ...base, from: 'tomorrow' },
    ]) {
      expect((await api('POST', 'portal/lockout', payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});

describe('RFID cards', () => {
  it('registers a card for a person; it opens their locks within their schedule and validity', async () => {
    const door = await addLock('Card door', 'UTC');
    const { member } = await addPerson('card.holder@example.com', { lastName: 'Holder' });
    await api('PUT', `user/${member._id}/device/${door}`);
    const created = await api('POST', 'portal/rfid', {
      uid: '04:a1:b2:c3:d4:e5:f6',
      name: 'Blue fob',
      userId: member._id,
      validUntil: '2027-01-01T00:00:00Z',
    });
    expect(created.statusCode).toBe(201);
    const card = created.json();
    expect(card).toMatchObject({
      uid: '04A1B2C3D4E5F6',
      name: 'Blue fob',
      holder: { _id: member._id, name: 'card.holder Holder' },
    });

    const again = await api('POST', 'portal/rfid', { uid: '04A1B2C3D4E5F6' });
    expect(again.statusCode).toBe(409);

    expect((await api('GET', `user/${member._id}/rfids`)).json().map((c: { _id: string }) => c._id)).toEqual([
      card._id,
    ]);
    expect((await api('GET', `device/${door}/rfids`)).json().map((c: { _id: string }) => c._id)).toEqual([
      card._id,
    ]);
    expect((await api('GET', 'portal/rfids?search=a1b2')).json().total).toBe(1);

    const person = async (at: string) =>
      (await api('GET', `portal/device/${door}/access?at=${at}`))
        .json()
        .people.find((p: { _id: string }) => p._id === member._id);
    expect((await person('2026-12-01T00:00:00Z')).credentials).toEqual(['remote', 'rfid']);

    const moved = await api('POST', `portal/rfid/${card._id}`, {
      uid: card.uid,
      name: 'Spare',
      userId: null,
    });
    expect(moved.json()).toMatchObject({ holder: null, validUntil: null });
    expect((await api('GET', `device/${door}/rfids`)).json()).toEqual([]);
    expect((await api('POST', `portal/rfid/${card._id}`, { uid: '11223344' })).statusCode).toBe(400);

    expect((await api('DELETE', `portal/rfid/${card._id}`)).statusCode).toBe(204);
    expect((await api('GET', `portal/rfid/${card._id}`)).statusCode).toBe(404);
    expect((await api('POST', 'portal/rfid', { uid: '04A1B2C3D4E5F6' })).statusCode).toBe(201);
  });

  it.each([['12345'], ['ZZ112233'], ['04A1B2C3D4']])('refuses the UID %s', async (uid) => {
    const response = await api('POST', 'portal/rfid', { uid });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details[0].path).toBe('body.uid');
  });
});

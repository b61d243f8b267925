import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp } from './test-app';

let t: TestApp;
let owner: Awaited<ReturnType<TestApp['signUp']>>;
let basic: Awaited<ReturnType<TestApp['signUp']>>;

beforeAll(async () => {
  t = await TestApp.start();
  owner = await t.signUp({
    email: 'owner@example.com',
    firstName: 'Olive',
    lastName: 'Owner',
    portalName: 'Elm Street',
  });
  basic = await t.signUp({ email: 'basic@example.com', firstName: 'Basil', lastName: 'Tenant' });
  await t.addMember(owner.portalId, basic.userId, 'user');
  for (const [i, name] of ['Zed', 'Amy', 'Mia', 'Bob'].entries()) {
    const person = await t.signUp({ email: `${name.toLowerCase()}@example.com`, firstName: name });
    await t.addMember(
      owner.portalId,
      person.userId,
      i === 0 ? 'admin' : 'user',
      i === 3 ? 'suspended' : 'active',
    );
  }
  const invited = await t.signUp({ email: 'invited@example.com', firstName: 'Ivy' });
  await t.addMember(owner.portalId, invited.userId, 'user', 'invited');
});
afterAll(() => t.close());

describe('GET portal and portal/dashboard', () => {
  it('answers the portal the request acts in', async () => {
    const response = await t.request({ method: 'GET', url: '/api3/portal', token: owner.token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      _id: owner.portalId,
      name: 'Elm Street',
      timeZone: 'UTC',
      current: false,
    });
  });

  it('counts members by role and state', async () => {
    const response = await t.request({ method: 'GET', url: '/api3/portal/dashboard', token: owner.token });
    expect(response.json().counts).toEqual({
      // Everyone, as the member list counts them: 2 admins and 3 users active, 1 invited, 1 suspended.
      members: 7,
      admins: 2,
      users: 3,
      invited: 1,
      suspended: 1,
      devices: 0,
      groups: 0,
      offline: 0,
      lowBattery: 0,
    });
  });

  it('lists the locks that need attention: offline (never seen first) and low on battery', async () => {
    const add = async (name: string) =>
      (
        await t.request({
          method: 'POST',
          url: '/api3/portal/device/new',
          token: owner.token,
          payload: { name, model: 'latchkey-sim', timeZone: 'UTC' },
        })
      ).json().device._id as string;
    const [seen, never, low] = [await add('Seen door'), await add('Never door'), await add('Low door')];
    // What a lock's status reports set (the device link lands with the device protocol).
    const report = (id: string, values: { online: number; battery: number; last_seen_at: string }) =>
      t.app.db.updateTable('devices').set(values).where('id', '=', id).execute();
    await report(seen, { online: 0, battery: 80, last_seen_at: '2026-11-20T10:00:00.000Z' });
    await report(low, { online: 1, battery: 9, last_seen_at: new Date().toISOString() });

    const dashboard = (
      await t.request({ method: 'GET', url: '/api3/portal/dashboard', token: owner.token })
    ).json();
    expect(dashboard.counts).toMatchObject({ devices: 3, offline: 2, lowBattery: 1 });
    expect(dashboard.offline.map((d: { name: string }) => d.name)).toEqual(['Never door', 'Seen door']);
    expect(dashboard.lowBattery).toEqual([expect.objectContaining({ _id: low, battery: 9 })]);
    for (const id of [seen, never, low]) {
      await t.request({ method: 'DELETE', url: `/api3/portal/device/${id}`, token: owner.token });
    }
  });

  it('lets a basic user see their portal but not its dashboard', async () => {
    const portal = await t.request({
      method: 'GET',
      url: '/api3/portal',
      token: basic.token,
      portal: owner.portalId,
    });
    expect(portal.statusCode).toBe(200);
    const dashboard = await t.request({
      method: 'GET',
      url: '/api3/portal/dashboard',
      token: basic.token,
      portal: owner.portalId,
    });
    expect(dashboard.statusCode).toBe(403);
  });
});

describe('POST portal/data', () => {
  it('renames the portal and changes its time zone, writing the change log', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api3/portal/data',
      token: owner.token,
      payload: { name: '  Elm Street Lofts ', timeZone: 'America/New_York' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ name: 'Elm Street Lofts', timeZone: 'America/New_York' });
    const log = await t.request({ method: 'GET', url: '/api3/portal/audit', token: owner.token });
    const [entry] = log.json().items;
    expect(entry).toMatchObject({
      action: 'portal.update',
      actor: { _id: owner.userId, email: 'owner@example.com' },
      entityId: owner.portalId,
      before: { name: 'Elm Street', timeZone: 'UTC' },
      after: { name: 'Elm Street Lofts', timeZone: 'America/New_York' },
    });
  });

  it.each([[{}], [{ name: '' }], [{ timeZone: 'Nowhere/Land' }], [{ name: 'x'.repeat(81) }]])(
    'refuses %j with a 400 and changes nothing',
    async (payload) => {
      const before = (await t.request({ method: 'GET', url: '/api3/portal', token: owner.token })).json();
      const response = await t.request({
        method: 'POST',
        url: '/api3/portal/data',
        token: owner.token,
        payload,
      });
      expect(response.statusCode).toBe(400);
      const after = (await t.request({ method: 'GET', url: '/api3/portal', token: owner.token })).json();
      expect(after).toEqual(before);
    },
  );
});

describe('GET portal/users', () => {
  const list = (query: string) =>
    t.request({ method: 'GET', url: `/api3/portal/users?${query}`, token: owner.token });

  it('pages, sorts and counts', async () => {
    const first = (await list('limit=2&sortBy=firstName')).json();
    expect(first.total).toBe(7);
    expect(first.items.map((m: { firstName: string }) => m.firstName)).toEqual(['Amy', 'Basil']);
    const next = (await list('skip=2&limit=2&sortBy=firstName')).json();
    expect(next.items.map((m: { firstName: string }) => m.firstName)).toEqual(['Bob', 'Ivy']);
    const last = (await list('sortBy=firstName&descending=true&limit=1')).json();
    expect(last.items[0]).toMatchObject({ firstName: 'Zed', role: 'admin' });
  });

  it('searches names and emails case-insensitively, literally', async () => {
    expect((await list('search=OLIVE')).json().items).toHaveLength(1);
    expect((await list('search=example.com')).json().total).toBe(7);
    expect((await list('search=%25')).json().total).toBe(0);
    expect((await list('search=_')).json().total).toBe(0);
  });

  it('counts a search the same on every page, past the last one too', async () => {
    // A search's total rides on the page's rows; a page past the end has none to carry it.
    const pages = await Promise.all(
      ['skip=0', 'skip=2', 'skip=6', 'skip=50'].map(async (skip) =>
        (await list(`search=example.com&sortBy=firstName&limit=2&${skip}`)).json(),
      ),
    );
    expect(pages.map((page) => page.total)).toEqual([7, 7, 7, 7]);
    expect(pages.map((page) => page.items.length)).toEqual([2, 2, 1, 0]);
    expect(pages[1].items.map((m: { firstName: string }) => m.firstName)).toEqual(['Bob', 'Ivy']);
  });

  it('filters by role and status', async () => {
    expect((await list('filterBy=role&filterValue=admin')).json().total).toBe(2);
    expect((await list('filterBy=status&filterValue=suspended')).json().items[0].firstName).toBe('Bob');
    const owners = (await list('filterBy=role&filterValue=admin&sortBy=firstName')).json().items;
    expect(owners.map((m: { owner: boolean }) => m.owner)).toEqual([true, false]);
  });

  it.each([
    'sortBy=password_hash',
    'limit=0',
    'limit=500',
    'skip=-1',
    'filterBy=role',
    'filterBy=role&filterValue=king',
    'filterBy=email&filterValue=x',
  ])('answers 400 for %s', async (query) => {
    const response = await list(query);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('bad_request');
  });
});

describe('acting in another portal', () => {
  it('lets a member act in a portal they belong to with the override header', async () => {
    const session = (
      await t.request({ method: 'GET', url: '/api3/auth', token: basic.token, portal: owner.portalId })
    ).json();
    expect(session.portal._id).toBe(owner.portalId);
    expect(session.roles).toEqual(['user']);
    const own = (await t.request({ method: 'GET', url: '/api3/auth', token: basic.token })).json();
    expect(own.portal._id).toBe(basic.portalId);
    expect(own.memberships).toHaveLength(2);
  });

  it('refuses an override to a portal without an active membership', async () => {
    const stranger = await t.signUp();
    for (const token of [stranger.token]) {
      const response = await t.request({ method: 'GET', url: '/api3/portal', token, portal: owner.portalId });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe('portal_override_denied');
    }
    const invitedLogin = await t.login('invited@example.com', 'a sturdy passphrase');
    const invited = await t.request({
      method: 'GET',
      url: '/api3/portal',
      token: invitedLogin.json().token,
      portal: owner.portalId,
    });
    expect(invited.statusCode).toBe(403);
  });

  it('lets platform staff act as admin in any portal', async () => {
    const staff = await t.createSuperAdmin();
    const dashboard = await t.request({
      method: 'GET',
      url: '/api3/portal/dashboard',
      token: staff.token,
      portal: owner.portalId,
    });
    expect(dashboard.statusCode).toBe(200);
    const context = await t.request({
      method: 'GET',
      url: `/api3/portal/user/portal/current/${owner.portalId}`,
      token: staff.token,
    });
    expect(context.json()).toMatchObject({ role: 'admin', viaPlatformRole: true });
    const session = (
      await t.request({ method: 'GET', url: '/api3/auth', token: staff.token, portal: owner.portalId })
    ).json();
    expect(session.roles).toEqual(['admin', 'superAdmin']);
  });
});

describe('portal membership lookups', () => {
  it('answers a member with the portal name and their place in it', async () => {
    const name = await t.request({
      method: 'GET',
      url: `/api3/portal/${owner.portalId}/name`,
      token: basic.token,
    });
    expect(name.json()).toEqual({ _id: owner.portalId, name: 'Elm Street Lofts' });
    const context = await t.request({
      method: 'GET',
      url: `/api3/portal/user/portal/${owner.portalId}`,
      token: basic.token,
    });
    expect(context.json()).toMatchObject({ role: 'user', status: 'active', viaPlatformRole: false });
  });

  it('shows an invited person their invitation but does not let them switch there', async () => {
    const { token } = (await t.login('invited@example.com', 'a sturdy passphrase')).json();
    const context = await t.request({
      method: 'GET',
      url: `/api3/portal/user/portal/${owner.portalId}`,
      token,
    });
    expect(context.json()).toMatchObject({ status: 'invited', portal: { name: 'Elm Street Lofts' } });
    const current = await t.request({
      method: 'GET',
      url: `/api3/portal/user/portal/current/${owner.portalId}`,
      token,
    });
    expect(current.statusCode).toBe(403);
  });

  it('answers 404 to a stranger, for real and made-up ids alike', async () => {
    const stranger = await t.signUp();
    for (const id of [owner.portalId, 'no-such-portal']) {
      const response = await t.request({
        method: 'GET',
        url: `/api3/portal/${id}/name`,
        token: stranger.token,
      });
      expect(response.statusCode).toBe(404);
    }
  });
});

describe('POST user/{id}/portal', () => {
  it('lets a person who owns no portal start one, once, and only for themselves', async () => {
    const added = await t.addPerson(owner.token, {
      email: 'nomad@example.com',
      firstName: 'Nia',
      role: 'user',
    });
    const member = { _id: added.userId };
    const token = added.token!;
    const start = (payload: object, id = member._id, as = token) =>
      t.request({ method: 'POST', url: `/api3/user/${id}/portal`, token: as, payload });

    const bad = await start({ name: ' ', timeZone: 'Mars/Olympus' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.map((d: { path: string }) => d.path)).toEqual([
      'body.name',
      'body.timeZone',
    ]);
    expect((await start({ name: 'Not mine' }, basic.userId)).statusCode).toBe(403);

    const created = await start({ name: 'Nomad House', timeZone: 'Europe/Lisbon' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Nomad House',
      timeZone: 'Europe/Lisbon',
      ownerId: member._id,
    });
    const session = (await t.request({ method: 'GET', url: '/api3/auth', token })).json();
    expect(session.portalOwned).toBe(created.json()._id);
    expect(session.memberships).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          portal: expect.objectContaining({ name: 'Nomad House' }),
          role: 'admin',
          owner: true,
        }),
        expect.objectContaining({
          portal: expect.objectContaining({ name: 'Elm Street Lofts' }),
          role: 'user',
        }),
      ]),
    );

    const again = await start({ name: 'Second house' });
    expect(again.statusCode).toBe(409);
    expect((await start({ name: 'Owner has one' }, owner.userId, owner.token)).statusCode).toBe(409);
  });
});

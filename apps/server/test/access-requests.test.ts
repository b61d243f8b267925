import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCredentialSet } from '../src/features/access/access.service';
import { findDevice } from '../src/features/devices/devices.repository';
import { makeMember, makeOwner } from './factories';
import { TestApp } from './test-app';

// Access requests (issue 21, the `accessRequest` collection; docs/decisions.md "Access requests"):
// a person asks for a lock, an admin grants it with a schedule through the access service (the
// lock's credential set changes) or declines with a reason; the person sees the answer; audited;
// nobody else sees it.

describe('access requests', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof makeOwner>>;
  let person: Awaited<ReturnType<typeof makeMember>>;
  let neighbour: Awaited<ReturnType<typeof makeMember>>;
  let otherOwner: Awaited<ReturnType<typeof makeOwner>>;
  let frontDoor: string;
  let backDoor: string;

  const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.request({ method, url: `/api3${url}`, token, ...(payload && { payload }) });
  const addLock = async (name: string) =>
    (
      await call(owner.token, 'POST', '/portal/device/new', { name, model: 'latchkey-sim', timeZone: 'UTC' })
    ).json().device._id as string;
  const entriesOf = async (deviceId: string, userId: string) => {
    const device = (await findDevice(t.app.db, owner.portalId, deviceId))!;
    return (await buildCredentialSet(t.app.db, owner.portalId, device)).entries.filter(
      (e) => e.userId === userId,
    );
  };

  beforeAll(async () => {
    t = await TestApp.start();
    owner = await makeOwner(t, { portalName: 'Requests portal A' });
    person = await makeMember(t, owner.portalId, { firstName: 'Rita' });
    neighbour = await makeMember(t, owner.portalId, { firstName: 'Nils' });
    otherOwner = await makeOwner(t, { portalName: 'Requests portal B' });
    frontDoor = await addLock('Front door');
    backDoor = await addLock('Back door');
  });
  afterAll(() => t.close());

  it('a person asks; the admin grants with a schedule; the lock set and the person’s locks change', async () => {
    const locks = await call(person.token, 'GET', '/portal/accessRequest/locks');
    expect(locks.statusCode).toBe(200);
    expect(locks.json()).toEqual(
      expect.arrayContaining([{ _id: frontDoor, name: 'Front door', hasAccess: false, waiting: false }]),
    );

    const asked = await call(person.token, 'POST', '/portal/accessRequest', {
      deviceId: frontDoor,
      note: 'I open the shop at 7',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json()).toMatchObject({
      status: 'waiting',
      note: 'I open the shop at 7',
      device: { name: 'Front door' },
    });
    const id = asked.json()._id as string;
    // Once per person and lock while it waits.
    const twice = await call(person.token, 'POST', '/portal/accessRequest', { deviceId: frontDoor });
    expect(twice.statusCode).toBe(409);
    expect((await call(person.token, 'GET', '/portal/accessRequest/locks')).json()).toEqual(
      expect.arrayContaining([{ _id: frontDoor, name: 'Front door', hasAccess: false, waiting: true }]),
    );

    const waiting = await call(owner.token, 'GET', '/portal/accessRequest?status=waiting');
    expect(waiting.json().items.map((r: { _id: string }) => r._id)).toContain(id);
    expect(await entriesOf(frontDoor, person.userId)).toEqual([]);

    const schedule = { windows: [{ days: [1, 2, 3, 4, 5], start: '07:00', end: '19:00' }] };
    const granted = await call(owner.token, 'POST', `/portal/accessRequest/${id}/grant`, { schedule });
    expect(granted.statusCode, granted.body).toBe(200);
    expect(granted.json()).toMatchObject({ status: 'granted', schedule, answeredBy: { _id: owner.userId } });

    // Through the access service: direct access with the schedule, in the lock's credential set.
    const entries = await entriesOf(frontDoor, person.userId);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((entry) => JSON.stringify(entry.schedule) === JSON.stringify(schedule))).toBe(true);
    const mine = await call(person.token, 'GET', `/user/${person.userId}/devices`);
    expect(mine.json().map((d: { name: string }) => d.name)).toContain('Front door');

    // Answered once.
    expect(
      (await call(owner.token, 'POST', `/portal/accessRequest/${id}/decline`, { reason: 'no' })).statusCode,
    ).toBe(409);
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('portal_id', '=', owner.portalId)
      .where('entity_id', 'in', [id, frontDoor])
      .execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['access_request.create', 'access_request.grant', 'access.grant']),
    );
  });

  it('a declined request shows its reason to the person', async () => {
    const asked = await call(person.token, 'POST', '/portal/accessRequest', { deviceId: backDoor, note: '' });
    const id = asked.json()._id as string;
    expect(
      (await call(owner.token, 'POST', `/portal/accessRequest/${id}/decline`, { reason: '' })).statusCode,
    ).toBe(400);
    const declined = await call(owner.token, 'POST', `/portal/accessRequest/${id}/decline`, {
      reason: 'The back door is for deliveries',
    });
    expect(declined.json()).toMatchObject({ status: 'declined', reason: 'The back door is for deliveries' });
    const mine = await call(person.token, 'GET', '/portal/accessRequest/mine');
    expect(mine.json().items.find((r: { _id: string }) => r._id === id)).toMatchObject({
      status: 'declined',
      reason: 'The back door is for deliveries',
    });
    expect(await entriesOf(backDoor, person.userId)).toEqual([]);
  });

  it('a person withdraws their own waiting request, and only theirs', async () => {
    const asked = await call(neighbour.token, 'POST', '/portal/accessRequest', { deviceId: backDoor });
    const id = asked.json()._id as string;
    expect((await call(person.token, 'POST', `/portal/accessRequest/${id}/withdraw`)).statusCode).toBe(404);
    const withdrawn = await call(neighbour.token, 'POST', `/portal/accessRequest/${id}/withdraw`);
    expect(withdrawn.json().status).toBe('withdrawn');
    expect(
      (await call(owner.token, 'POST', `/portal/accessRequest/${id}/grant`, { schedule: null })).statusCode,
    ).toBe(409);
  });

  it('nobody else sees a request: another person, a basic user on the admin list, another portal', async () => {
    const asked = await call(neighbour.token, 'POST', '/portal/accessRequest', {
      deviceId: frontDoor,
      note: 'private',
    });
    const id = asked.json()._id as string;
    expect((await call(person.token, 'GET', `/portal/accessRequest/${id}`)).statusCode).toBe(404);
    expect((await call(neighbour.token, 'GET', `/portal/accessRequest/${id}`)).statusCode).toBe(200);
    expect((await call(person.token, 'GET', '/portal/accessRequest')).statusCode).toBe(403);
    const mine = await call(person.token, 'GET', '/portal/accessRequest/mine');
    expect(mine.json().items.map((r: { _id: string }) => r._id)).not.toContain(id);

    expect((await call(otherOwner.token, 'GET', `/portal/accessRequest/${id}`)).statusCode).toBe(404);
    expect(
      (await call(otherOwner.token, 'POST', `/portal/accessRequest/${id}/grant`, { schedule: null }))
        .statusCode,
    ).toBe(404);
    const foreignList = await call(otherOwner.token, 'GET', '/portal/accessRequest');
    expect(foreignList.json()).toEqual({ items: [], total: 0 });
    // Another portal's lock cannot be asked for.
    const foreign = await call(otherOwner.token, 'POST', '/portal/accessRequest', { deviceId: frontDoor });
    expect(foreign.statusCode).toBe(404);
    expect((await call(otherOwner.token, 'GET', '/portal/accessRequest/locks')).body).not.toContain(
      'Front door',
    );
  });
});

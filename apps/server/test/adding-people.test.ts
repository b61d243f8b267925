import type { ActivityPage } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMailTo } from '../src/base/mail/mail.repository';
import { TestApp } from './test-app';

// Adding a person to a portal, as an attacker would try it (issue 10, defects 1, 2 and 10): an
// account made for someone never carries a password or a name chosen by someone else, an existing
// account joins only by accepting, and the answers tell nothing about who has an account.

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({ PUBLIC_URL: 'https://portal.example.com' });
});
afterAll(() => t.close());

type Session = Awaited<ReturnType<TestApp['signUp']>>;
const call = (
  as: { token: string } | string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  portal?: string,
) =>
  t.request({
    method,
    url: `/api3/${url}`,
    token: typeof as === 'string' ? as : as.token,
    ...(portal && { portal }),
    ...(payload && { payload }),
  });

async function addLock(owner: Session, name: string) {
  const response = await call(owner, 'POST', 'portal/device/new', {
    name,
    model: 'latchkey-sim',
    timeZone: 'UTC',
  });
  expect(response.statusCode).toBe(201);
  return response.json().device._id as string;
}

describe('an account made for someone else', () => {
  it('never takes a password from the admin: nobody signs in until the person sets their own', async () => {
    const attacker = await t.signUp({ email: 'mallory@example.com' });
    const withPassword = await call(attacker, 'POST', 'portal/user', {
      email: 'victim@example.com',
      password: 'attacker chosen pass',
    });
    expect(withPassword.statusCode).toBe(400);
    expect((await call(attacker, 'GET', 'portal/users?search=victim')).json().total).toBe(0);

    const added = await call(attacker, 'POST', 'portal/user', { email: 'victim@example.com' });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toEqual({ member: expect.objectContaining({ status: 'invited' }) });
    for (const password of ['attacker chosen pass', '', 'a sturdy passphrase']) {
      expect((await t.login('victim@example.com', password)).statusCode).not.toBe(200);
    }

    // The real owner of the address takes the account through a link mailed to it.
    expect(
      (await t.request({ method: 'POST', url: '/api3/auth/resetPassword/victim@example.com' })).statusCode,
    ).toBe(202);
    const reset = (await listMailTo(t.app.db, 'victim@example.com'))
      .map((mail) => mail.text_body.match(/\/auth\/reset\?token=([\w-]+)/)?.[1])
      .find(Boolean)!;
    const chosen = await t.request({
      method: 'POST',
      url: '/api3/auth/reset',
      payload: t.seal({ token: reset, password: 'victim own passphrase' }),
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const victim = (await t.login('victim@example.com', 'victim own passphrase')).json();
    // Still only invited to the attacker's portal: joining is the person's choice.
    const session = (await call(victim.token, 'GET', 'auth')).json();
    expect(session.memberships).toEqual([
      expect.objectContaining({
        portal: expect.objectContaining({ _id: attacker.portalId }),
        status: 'invited',
      }),
    ]);
  });

  it('is not made by an admin whose own address is unconfirmed, and no mail goes out', async () => {
    const fresh = await t.signUp({ email: 'fresh.signup@example.com', verified: false });
    for (const url of ['portal/user', 'user/invite']) {
      const response = await call(fresh, 'POST', url, { email: `target-${url.length}@example.com` });
      expect(response.statusCode, url).toBe(403);
      expect(response.json().error.message).toMatch(/Confirm your email address/);
    }
    expect((await call(fresh, 'GET', 'portal/users?filterBy=status&filterValue=invited')).json().total).toBe(
      0,
    );
    expect(await listMailTo(t.app.db, 'target-11@example.com')).toEqual([]);
  });
});

describe('adding an existing account', () => {
  it('is an invitation its owner accepts; a pre-registered account gains nothing in the victim portal', async () => {
    const company = await t.signUp({ email: 'boss@company.example', portalName: 'Company HQ' });
    const door = await addLock(company, 'HQ door');
    // An attacker signs up first with an employee's address (never confirmed: they cannot read its mail).
    const squatter = await t.signUp({
      email: 'employee@company.example',
      password: 'squatter passphrase',
      verified: false,
    });
    const added = await call(company, 'POST', 'portal/user', {
      email: 'employee@company.example',
      firstName: 'Erin',
      role: 'admin',
      deviceIds: [door],
    });
    expect(added.json().member).toMatchObject({ _id: squatter.userId, status: 'invited', role: 'admin' });

    const inHq = (method: 'GET' | 'POST', url: string, payload?: object) =>
      call(squatter, method, url, payload, company.portalId);
    expect((await inHq('GET', 'portal/devices')).statusCode).toBe(403);
    expect((await inHq('POST', `device/${door}/command`, { action: 'unlock' })).statusCode).toBe(403);
    expect((await call(squatter, 'POST', `portal/user/portal/${company.portalId}/accept`)).statusCode).toBe(
      403,
    );
    expect((await inHq('GET', 'portal/devices')).statusCode).toBe(403);
    // Nor does the app let them open the door: an invitation not accepted has no app entry.
    const access = (await call(company, 'GET', `portal/device/${door}/access`)).json();
    expect(access.people.map((p: { _id: string }) => p._id)).not.toContain(squatter.userId);
  });

  it('answers exactly as for an address without an account, with the name the admin typed', async () => {
    const admin = await t.signUp({ email: 'prober@example.com' });
    await t.signUp({ email: 'known.person@example.com', firstName: 'Katherine', lastName: 'Known' });
    for (const url of ['portal/user', 'user/invite']) {
      const known = await call(admin, 'POST', url, { email: `known.person@example.com`, firstName: 'K' });
      const unknown = await call(admin, 'POST', url, {
        email: `unknown-${url.replace('/', '-')}@example.com`,
        firstName: 'K',
      });
      expect([known.statusCode, unknown.statusCode]).toEqual([201, 201]);
      const shape = (body: { member: Record<string, unknown> }) => ({
        keys: Object.keys(body).sort(),
        member: { ...body.member, _id: 'id', email: 'email', joinedAt: 'time' },
      });
      expect(shape(known.json())).toEqual(shape(unknown.json()));
      expect(known.json().member).toMatchObject({ firstName: 'K', lastName: '', status: 'invited' });
      // The people list shows the portal's name for them too, not the account's.
      const listed = (await call(admin, 'GET', 'portal/users?search=known.person')).json();
      expect(listed.items[0]).toMatchObject({ firstName: 'K', lastName: '' });
      expect(JSON.stringify(listed)).not.toContain('Katherine');
      await call(admin, 'DELETE', `portal/user/${known.json().member._id}`);
    }
  });
});

describe("a person's name", () => {
  it("belongs to the person: another portal's admin changes only their own label", async () => {
    const owner = await t.signUp({ email: 'olivia@example.com', firstName: 'Olivia', lastName: 'Owner' });
    const evil = await t.signUp({ email: 'evil.admin@example.com' });
    await call(evil, 'POST', 'portal/user', { email: 'olivia@example.com' });
    expect((await call(owner, 'POST', `portal/user/portal/${evil.portalId}/accept`)).statusCode).toBe(200);
    // Joined with no name typed for her: the portal now sees her own name.
    expect((await call(evil, 'GET', `portal/user/${owner.userId}`)).json().member).toMatchObject({
      firstName: 'Olivia',
      lastName: 'Owner',
    });

    const renamed = await call(evil, 'POST', `portal/user/${owner.userId}`, {
      firstName: 'Wicked',
      lastName: 'Witch',
    });
    expect(renamed.json()).toMatchObject({ firstName: 'Wicked', lastName: 'Witch' });
    expect((await call(evil, 'GET', 'portal/users?search=wicked')).json().total).toBe(1);

    expect((await call(owner, 'GET', `portal/user/${owner.userId}`)).json().member).toMatchObject({
      firstName: 'Olivia',
      lastName: 'Owner',
    });
    expect((await call(owner, 'GET', 'auth')).json().user).toMatchObject({
      firstName: 'Olivia',
      lastName: 'Owner',
    });
    expect((await call(owner, 'GET', 'portal/users?search=wicked')).json().total).toBe(0);
    const audit = (await call(owner, 'GET', 'portal/audit')).json();
    expect(JSON.stringify(audit)).not.toContain('Wicked');

    // Clearing the label shows her own name again.
    await call(evil, 'POST', `portal/user/${owner.userId}`, { firstName: '', lastName: '' });
    expect((await call(evil, 'GET', `portal/user/${owner.userId}`)).json().member.firstName).toBe('Olivia');
  });
});

describe('credentials of a person who has not accepted yet', () => {
  it('work on the locks (the portal handed them out); opening from the app waits for the person', async () => {
    const admin = await t.signUp({ email: 'landlord@example.com' });
    const door = await addLock(admin, 'Flat door');
    const invited = await call(admin, 'POST', 'portal/user', {
      email: 'tenant@example.com',
      firstName: 'Tia',
      deviceIds: [door],
    });
    const tenantId = invited.json().member._id as string;
    // The lock given in the same step is in the person's history, as a grant on the lock's page is.
    const history = (await call(admin, 'GET', `user/${tenantId}/history`)).json() as ActivityPage;
    const actions = history.items.flatMap((item) => (item.source === 'change' ? [item.change] : []));
    expect(actions.map((change) => [change.action, change.entityId])).toEqual(
      expect.arrayContaining([
        ['member.invite', tenantId],
        ['access.grant', door],
      ]),
    );
    expect(
      (await call(admin, 'POST', 'user/accessCode', { userId: tenantId, code: '583920' })).statusCode,
    ).toBe(200);
    const before = (await call(admin, 'GET', `portal/device/${door}/access`)).json();
    expect(before.people).toEqual([
      expect.objectContaining({ _id: tenantId, name: 'Tia', canOpen: true, credentials: ['code'] }),
    ]);

    await t.request({
      method: 'POST',
      url: '/api3/user/inviteResponse',
      payload: t.seal({
        token: await t.invitationToken('tenant@example.com'),
        accept: true,
        password: 'tenant passphrase',
      }),
    });
    const after = (await call(admin, 'GET', `portal/device/${door}/access`)).json();
    expect(after.people[0].credentials.sort()).toEqual(['code', 'remote']);
  });
});

describe('GET portal/user', () => {
  it('answers the signed-in person their own membership and code in the acting portal', async () => {
    const admin = await t.signUp({ email: 'self.admin@example.com', firstName: 'Sally' });
    const own = await call(admin, 'GET', 'portal/user');
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({
      member: { _id: admin.userId, role: 'admin', owner: true, status: 'active', firstName: 'Sally' },
      accessCode: null,
    });

    const basic = await t.addPerson(admin.token, { email: 'self.basic@example.com', firstName: 'Basil' });
    await call(admin, 'POST', 'user/accessCode', { userId: basic.userId, code: '774411' });
    const mine = await call(basic.token!, 'GET', 'portal/user');
    expect(mine.json()).toMatchObject({
      member: { _id: basic.userId, role: 'user', owner: false, firstName: 'Basil' },
      accessCode: '774411',
    });
    expect((await t.request({ method: 'GET', url: '/api3/portal/user' })).statusCode).toBe(401);
  });
});

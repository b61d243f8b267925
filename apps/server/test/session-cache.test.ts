import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp } from './test-app';

// The session cache (base/identity/session-cache.ts) keeps a signed-in person and their portals
// while the auth epoch stands still. Two servers over one database (SQLite file, or PostgreSQL with
// TEST_DATABASE_URL): a change made through one must count on the other from its very next request,
// after each server has served (and kept) the person.

let a: TestApp;
let b: TestApp;
let admin: Awaited<ReturnType<TestApp['signUp']>>;

beforeAll(async () => {
  a = await TestApp.start();
  b = await TestApp.start({
    DATA_DIR: a.app.config.DATA_DIR, // the same SQLite file and the same signing keys
    ...(a.app.config.DATABASE_URL && { DATABASE_URL: a.app.config.DATABASE_URL }),
  });
  admin = await a.signUp({ firstName: 'Ada' });
}, 60_000);
afterAll(async () => {
  await b.close();
  await a.close();
});

const as = (server: TestApp, token: string, url: string, method: 'GET' | 'POST' = 'GET') =>
  server.request({ method, url: `/api3/${url}`, token, portal: admin.portalId });

/** Both servers answer `url` for `token` with `status` (each has kept the person by then). */
async function bothAnswer(token: string, url: string, status: number) {
  for (const server of [a, b]) {
    for (let i = 0; i < 2; i++) expect((await as(server, token, url)).statusCode, `${url}`).toBe(status);
  }
}

describe('the session cache', () => {
  it('lets no suspended member through after the suspension, on either server', async () => {
    const { userId, token } = await a.addPerson(admin.token, { email: 'kept@example.com', role: 'admin' });
    await bothAnswer(token!, 'portal/dashboard', 200);

    expect((await as(b, admin.token, `portal/user/${userId}/suspended`, 'POST')).statusCode).toBe(200);
    await bothAnswer(token!, 'portal/dashboard', 403);
    const session = (await a.request({ method: 'GET', url: '/api3/auth', token: token! })).json();
    expect(
      session.memberships.find((m: { portal: { _id: string } }) => m.portal._id === admin.portalId),
    ).toMatchObject({ status: 'suspended' });

    expect((await as(a, admin.token, `portal/user/${userId}/active`, 'POST')).statusCode).toBe(200);
    await bothAnswer(token!, 'portal/dashboard', 200);
  });

  it('takes a role away at once', async () => {
    const { userId, token } = await a.addPerson(admin.token, { email: 'demoted@example.com', role: 'admin' });
    await bothAnswer(token!, 'portal/devices', 200);
    const demoted = await a.request({
      method: 'POST',
      url: `/api3/portal/user/${userId}`,
      token: admin.token,
      payload: { role: 'user' },
    });
    expect(demoted.statusCode, demoted.body).toBe(200);
    await bothAnswer(token!, 'portal/devices', 403);
  });

  it('lets no revoked token through after sign-out, on either server', async () => {
    const { token } = await a.addPerson(admin.token, { email: 'leaving@example.com' });
    await bothAnswer(token!, 'portal/user/list', 403); // a basic user, kept as one
    for (const server of [a, b]) {
      expect((await server.request({ method: 'GET', url: '/api3/auth', token: token! })).statusCode).toBe(
        200,
      );
    }
    expect((await b.request({ method: 'POST', url: '/api3/auth/logout', token: token! })).statusCode).toBe(
      204,
    );
    for (const server of [a, b]) {
      expect((await server.request({ method: 'GET', url: '/api3/auth', token: token! })).statusCode).toBe(
        401,
      );
    }
  });

  it('lets no suspended account through (platform staff suspend it)', async () => {
    const { userId, token } = await a.addPerson(admin.token, { email: 'account@example.com' });
    for (const server of [a, b]) {
      expect((await server.request({ method: 'GET', url: '/api3/auth', token: token! })).statusCode).toBe(
        200,
      );
    }
    // As the platform's staff screens do: the account's status (no route of this to call).
    await b.app.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', userId).execute();
    for (const server of [a, b]) {
      const answer = await server.request({ method: 'GET', url: '/api3/auth', token: token! });
      expect(answer.statusCode).toBe(401);
      expect(answer.json().error.message).toMatch(/suspended/);
    }
  });

  it('shows a portal renamed on the other server', async () => {
    await bothAnswer(admin.token, 'auth', 200);
    const renamed = await b.request({
      method: 'POST',
      url: '/api3/portal/data',
      token: admin.token,
      payload: { name: 'Renamed Towers' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const session = (await a.request({ method: 'GET', url: '/api3/auth', token: admin.token })).json();
    expect(session.portal.name).toBe('Renamed Towers');
  });
});

import crypto from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../src/http/access';
import { TestApp } from './test-app';

/**
 * Generated from the route registry: every API route, every role, another portal's ids.
 * A new route is covered without anyone remembering to add it; a route with a new kind of
 * path parameter fails here until the parameter is added to `paramValues`.
 */

let t: TestApp;
interface Tenant {
  admin: string;
  portalId: string;
  userId: string;
  deviceId: string;
  groupId: string;
  lockoutId: string;
  rfidId: string;
  companyCodeId: string;
  fingerprintId: string;
  keyId: string;
  inviteId: string;
  alertRuleId: string;
}
let a: Tenant & { user: string };
let b: Tenant;
let staff: string;
let routes: RegisteredRoute[];
const FOREIGN_PORTAL_NAME = 'Portal B private name';
const UNKNOWN_COMMAND_ID = crypto.randomUUID();

/** What a path parameter names: `:id` depends on the path, the others on their name. */
function paramKind(url: string, name: string): keyof Tenant | 'status' | 'commandId' {
  if (name === 'deviceId') return 'deviceId';
  if (name === 'commandId') return 'commandId';
  if (name === 'userId') return 'userId';
  if (name === 'status') return 'status';
  if (name === 'inviteId') return 'inviteId';
  if (name !== 'id') throw new Error(`isolation test: no values for path parameter :${name} of ${url}`);
  if (/^\/api3\/portal\/(:id\/name|user\/portal\/)/.test(url)) return 'portalId';
  if (/^\/api3\/(portal\/)?device\//.test(url)) return 'deviceId';
  if (/^\/api3\/portal\/code\/company\//.test(url)) return 'companyCodeId';
  if (/^\/api3\/portal\/fingerprint\//.test(url)) return 'fingerprintId';
  if (/^\/api3\/(portal\/)?keys\//.test(url)) return 'keyId';
  if (/^\/api3\/(portal\/)?group\//.test(url)) return 'groupId';
  if (/^\/api3\/portal\/lockout\//.test(url)) return 'lockoutId';
  if (/^\/api3\/portal\/rfid\//.test(url)) return 'rfidId';
  if (/^\/api3\/portal\/alerts\/rules\//.test(url)) return 'alertRuleId';
  if (/^\/api3\/(portal\/)?user\//.test(url)) return 'userId';
  throw new Error(`isolation test: say what :id of ${url} names`);
}

/** The URL with ids from portal A (the caller's) or portal B (another tenant's). */
function fillUrl(url: string, side: 'own' | 'foreign'): string {
  return url.replace(/:(\w+)/g, (_, name: string) => {
    const kind = paramKind(url, name);
    if (kind === 'status') return 'suspended';
    // A command id alone opens nothing: the lock's id beside it decides whose command it is.
    if (kind === 'commandId') return UNKNOWN_COMMAND_ID;
    return (side === 'own' ? a : b)[kind];
  });
}

/** A portal with an admin, a member, a lock and a group, made through the API. */
async function makeTenant(portalName?: string) {
  const admin = await t.signUp(portalName ? { portalName } : {});
  const member = await t.signUp();
  await t.addMember(admin.portalId, member.userId, 'user');
  const post = (url: string, payload: object) =>
    t.request({ method: 'POST', url, token: admin.token, payload });
  const device = await post('/api3/portal/device/new', {
    name: 'Front door',
    model: 'latchkey-sim',
    timeZone: 'UTC',
  });
  const group = await post('/api3/portal/group', { name: 'Staff' });
  const card = await post('/api3/portal/rfid', {
    uid: crypto.randomBytes(4).toString('hex'),
    userId: member.userId,
  });
  const deviceId: string = device.json().device._id;
  const lockout = await post('/api3/portal/lockout', {
    name: 'Maintenance',
    from: '2030-01-01T00:00:00Z',
    deviceIds: [deviceId],
  });
  const companyCode = await post('/api3/portal/code/company', {
    name: 'Cleaning',
    code: String(crypto.randomInt(10_000_000, 99_999_999)),
  });
  await t.request({
    method: 'PUT',
    url: `/api3/user/${member.userId}/device/${deviceId}`,
    token: admin.token,
  });
  const fingerprint = await post('/api3/portal/fingerprint', {
    deviceId,
    userId: member.userId,
    templateId: '7',
    finger: 'right-index',
  });
  const key = await post('/api3/portal/keys', {
    name: 'Master key',
    type: 'physical',
    number: 'K-1',
    userId: member.userId,
    deviceIds: [deviceId],
  });
  const invite = await post(`/api3/device/${deviceId}/invite`, inviteBody());
  const alertRule = await post('/api3/portal/alerts/rules', {
    kind: 'tamper',
    name: 'Forced',
    deviceIds: [deviceId],
  });
  return {
    tenant: {
      admin: admin.token,
      portalId: admin.portalId,
      userId: member.userId,
      deviceId,
      groupId: group.json()._id,
      lockoutId: lockout.json()._id,
      rfidId: card.json()._id,
      companyCodeId: companyCode.json()._id,
      fingerprintId: fingerprint.json()._id,
      keyId: key.json()._id,
      inviteId: invite.json()._id,
      alertRuleId: alertRule.json()._id,
    },
    memberToken: member.token,
  };
}

const inviteBody = () => ({
  name: 'Guest',
  days: [1, 2],
  start: '09:00',
  end: '17:00',
  startDate: '2030-01-01',
  endDate: '2030-01-31',
});

/**
 * A valid body for each route that needs one, so the call gets past validation to the
 * ownership checks; ids in a body come from the same side as the ids in the path.
 */
const exampleBodies: Record<string, (tenant: Tenant) => object> = {
  'POST /api3/portal/device/:id': () => ({ name: 'Renamed' }),
  'POST /api3/portal/device/:id/schedule/:userId': () => ({ schedule: null }),
  'POST /api3/portal/group/:id': () => ({ name: 'Renamed' }),
  'POST /api3/portal/user/:id': () => ({ firstName: 'Renamed' }),
  'POST /api3/portal/lockout/:id': (tenant) => ({
    name: 'Renamed',
    from: '2030-01-01T00:00:00Z',
    deviceIds: [tenant.deviceId],
  }),
  'POST /api3/portal/rfid': (tenant) => ({ uid: '04A1B2C3', userId: tenant.userId }),
  'POST /api3/portal/rfid/:id': (tenant) => ({ uid: '04A1B2C3', userId: tenant.userId }),
  'POST /api3/user/accessCode': (tenant) => ({ userId: tenant.userId, code: '48151623' }),
  'POST /api3/portal/fingerprint': (tenant) => ({
    deviceId: tenant.deviceId,
    userId: tenant.userId,
    templateId: '8',
    finger: 'left-thumb',
  }),
  'POST /api3/portal/fingerprint/:id': () => ({ finger: 'left-index' }),
  'POST /api3/portal/keys': (tenant) => ({
    name: 'Spare',
    type: 'digital',
    userId: tenant.userId,
    deviceIds: [tenant.deviceId],
  }),
  'POST /api3/portal/keys/:id': () => ({ name: 'Renamed', number: 'K-2' }),
  'POST /api3/device/:id/invite': inviteBody,
  'POST /api3/device/:id/command': () => ({ action: 'unlock' }),
  'POST /api3/device/:id/invite/:inviteId': inviteBody,
  'POST /api3/user/:id/portal': () => ({ name: 'A place of my own' }),
  'POST /api3/portal/alerts/rules': (tenant) => ({
    kind: 'tamper',
    name: 'Watch',
    deviceIds: [tenant.deviceId],
  }),
  'POST /api3/portal/alerts/rules/:id': () => ({ kind: 'tamper', name: 'Renamed' }),
};

/** Routes a person calls about themselves: the right person to call them is the member, with their id. */
const SELF_ROUTES = new Set(['POST /api3/user/:id/portal']);

function call(
  route: RegisteredRoute,
  options: { token?: string; portal?: string; side?: 'own' | 'foreign' },
) {
  const request: InjectOptions & { token?: string; portal?: string } = {
    method: route.method as InjectOptions['method'],
    url: fillUrl(route.url, options.side ?? 'own'),
    token: options.token,
    portal: options.portal,
  };
  const example = exampleBodies[`${route.method} ${route.url}`];
  if (example) request.payload = example(options.side === 'foreign' ? b : a);
  else if (route.method === 'POST') request.payload = {};
  return t.request(request);
}

beforeAll(async () => {
  t = await TestApp.start({ LOGIN_LIMIT_PER_IP: '1000' });
  const tenantA = await makeTenant();
  a = { ...tenantA.tenant, user: tenantA.memberToken };
  b = (await makeTenant(FOREIGN_PORTAL_NAME)).tenant;
  staff = (await t.createSuperAdmin()).token;
  routes = t.app.routeRegistry;
});
afterAll(() => t.close());

const described = (r: RegisteredRoute) => `${r.method} ${r.url}`;

describe('route registry', () => {
  it('knows the API routes, each with a declared access', () => {
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.map(described)).toContain('GET /api3/portal/users');
  });

  it('answers 401 to anonymous callers on every non-public route', async () => {
    for (const route of routes.filter((r) => r.access.kind !== 'public')) {
      const response = await call(route, {});
      expect(response.statusCode, described(route)).toBe(401);
      expect(response.json().error.code, described(route)).toBe('unauthorized');
    }
  });

  it('answers 401 to a tampered token on every non-public route', async () => {
    const tampered = a.admin.slice(0, -4) + (a.admin.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    for (const route of routes.filter((r) => r.access.kind !== 'public')) {
      expect((await call(route, { token: tampered })).statusCode, described(route)).toBe(401);
    }
  });

  it('answers 403 to a basic user on every admin route', async () => {
    for (const route of routes.filter((r) => r.access.kind === 'portal' && r.access.role === 'admin')) {
      expect((await call(route, { token: a.user, portal: a.portalId })).statusCode, described(route)).toBe(
        403,
      );
    }
  });

  it('answers 403 to portal admins on every platform route', async () => {
    for (const route of routes.filter((r) => r.access.kind === 'platform')) {
      expect((await call(route, { token: a.admin })).statusCode, described(route)).toBe(403);
    }
  });

  it('answers 403 to an override naming a portal without membership, on every signed-in route', async () => {
    for (const route of routes.filter((r) => r.access.kind !== 'public')) {
      const response = await call(route, { token: a.admin, portal: b.portalId });
      expect(response.statusCode, described(route)).toBe(403);
      expect(response.json().error.code, described(route)).toBe('portal_override_denied');
    }
  });

  it("never answers another portal's data for its ids (403 or 404)", async () => {
    const namesIds = (r: RegisteredRoute) => r.url.includes(':') || `${r.method} ${r.url}` in exampleBodies;
    for (const route of routes.filter((r) => r.access.kind !== 'public' && namesIds(r))) {
      const response = await call(route, { token: a.admin, side: 'foreign' });
      expect([403, 404], `${described(route)} answered ${response.statusCode}`).toContain(
        response.statusCode,
      );
      expect(response.body, described(route)).not.toContain(FOREIGN_PORTAL_NAME);
    }
  });

  it('lets the right people through (no route is closed to everyone)', async () => {
    // Sign-out revokes the token, so it goes last.
    const signOutLast = (r: RegisteredRoute) => Number(r.url.endsWith('/auth/logout'));
    const signedInRoutes = routes.filter((r) => r.access.kind !== 'public');
    for (const route of signedInRoutes.sort((x, y) => signOutLast(x) - signOutLast(y))) {
      const token =
        route.access.kind === 'platform' ? staff : SELF_ROUTES.has(described(route)) ? a.user : a.admin;
      const response = await call(route, { token });
      expect([401, 403], `${described(route)} answered ${response.statusCode}`).not.toContain(
        response.statusCode,
      );
    }
  });
});

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
let a: { admin: string; user: string; portalId: string };
let b: { admin: string; portalId: string };
let staff: string;
let routes: RegisteredRoute[];
const FOREIGN_PORTAL_NAME = 'Portal B private name';

/** For each path parameter: an id in portal A (the caller's) and one in portal B (another tenant's). */
const paramValues: Record<string, (side: 'own' | 'foreign') => string> = {
  id: (side) => (side === 'own' ? a.portalId : b.portalId),
};

function fillUrl(url: string, side: 'own' | 'foreign'): string {
  return url.replace(/:(\w+)/g, (_, name: string) => {
    const value = paramValues[name];
    if (!value) throw new Error(`isolation test: no values for path parameter :${name} of ${url}`);
    return value(side);
  });
}

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
  if (route.method !== 'GET' && route.method !== 'DELETE') request.payload = {};
  return t.request(request);
}

beforeAll(async () => {
  t = await TestApp.start({ LOGIN_LIMIT_PER_IP: '1000' });
  const adminA = await t.signUp();
  const userA = await t.signUp();
  await t.addMember(adminA.portalId, userA.userId, 'user');
  const adminB = await t.signUp({ portalName: FOREIGN_PORTAL_NAME });
  a = { admin: adminA.token, user: userA.token, portalId: adminA.portalId };
  b = { admin: adminB.token, portalId: adminB.portalId };
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
    for (const route of routes.filter((r) => r.access.kind !== 'public' && r.url.includes(':'))) {
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
      const token = route.access.kind === 'platform' ? staff : a.admin;
      const response = await call(route, { token });
      expect([401, 403], `${described(route)} answered ${response.statusCode}`).not.toContain(
        response.statusCode,
      );
    }
  });
});

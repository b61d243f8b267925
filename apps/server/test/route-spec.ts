import { API_KEY_SCOPES } from '@latchkey/shared';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../src/base/http/access';
import {
  exampleBody,
  FOREIGN_PORTAL_NAME,
  fillUrl,
  makeTwoPortals,
  namesRentals,
  namesSupport,
  pathParams,
  type Tenant,
  type TwoPortals,
} from './fixtures';
import { TestApp } from './test-app';

/**
 * A feature's routes as specifications (issue 17): for each route of the feature in the route
 * registry, a `describe('<METHOD> <url>')` walking 401 → 400 → 403 / another portal → 404 → success,
 * against one TestApp with two portals of one of everything (fixtures.ts). A new route of the
 * feature is walked without an edit; the steps come from what it declares (access, schemas, ids,
 * example). The spec file is `test/specs/<feature>.spec.test.ts`: `await specifyRoutes('<feature>')`.
 */

/** What a route answers, when its declared example cannot make it succeed on the fixtures. */
export interface ExpectedAnswer {
  /** The statuses it may answer (a 2xx, or the refusal the fixtures lead to). */
  status: number[];
  /** Why not a plain success: what it would take, and where that is tested. */
  why: string;
}

/**
 * A request a route's static example cannot be, made fresh for each call from the fixture of the
 * calling side (and the app, to seal a body): unique addresses, codes, an upload.
 */
export type RequestExample = (
  tenant: Tenant,
  t: TestApp,
) => { payload: unknown; headers?: Record<string, string> };

/** What a feature's spec says of its routes beyond what they declare, each keyed `METHOD /api3/url`. */
export interface FeatureSpec {
  /** Records the feature's routes need beyond the two portals (the shop's catalogue). */
  setup?: (t: TestApp) => Promise<unknown>;
  /** Requests a route's static example cannot be (an upload, fresh values, a value the fixture chose). */
  examples?: Record<string, RequestExample>;
  /** Routes a person calls about themselves: their right caller is the basic user, with their id. */
  asBasicUser?: string[];
  /** Routes whose success step answers something else on the fixtures, and why. */
  answers?: Record<string, ExpectedAnswer>;
  /** Routes that answer an unknown id with something else than 404, and why. */
  unknownIds?: Record<string, ExpectedAnswer>;
}

const described = (route: RegisteredRoute) => `${route.method} ${route.url}`;

/**
 * Destructive routes go last, so the other routes find the fixtures whole: deletions nested records
 * first (longer paths), and signing out (which revokes the session) at the very end.
 */
function walkOrder(route: RegisteredRoute): number {
  if (route.url.endsWith('/auth/logout')) return 10_000;
  if (route.method === 'DELETE') return 1_000 - route.url.length;
  return 0;
}

/** Whether the route names records: ids in its path, or ids in its example body. */
const namesIds = (route: RegisteredRoute) => route.url.includes(':') || route.example !== undefined;

/** Whether a path parameter names a record the fixtures hold (an unknown one of that kind is a 404). */
const namesRecords = (route: RegisteredRoute) =>
  pathParams(route).some(
    ({ kind }) => !['unknown', 'status', 'commandId', 'year', 'month', 'size'].includes(kind),
  );

/** Whether a parameter is a token or link no fixture fills: such a route cannot be made to succeed. */
const hasUnfilledParams = (route: RegisteredRoute) =>
  pathParams(route).some(({ kind }) => kind === 'unknown');

/**
 * A query whose every field is a control character (no safe text, number, date or choice accepts
 * one), and a page out of range for list queries, whose refined schemas show no fields.
 */
function brokenQuery(route: RegisteredRoute): Record<string, string> {
  const shape = (route.schema.querystring as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
  return { skip: '-1', limit: '0', ...Object.fromEntries(Object.keys(shape).map((key) => [key, '\u0001'])) };
}

/** Walks every route of `feature` (see the top of this file); call it at the top level of its spec file. */
export async function specifyRoutes(feature: string, spec: FeatureSpec = {}): Promise<void> {
  // The routes are known once the app is built: the describes are made from its registry.
  const t = await TestApp.start({ LOGIN_LIMIT_PER_IP: '1000' });
  const routes = t.app.routeRegistry
    .filter((route) => route.feature === feature)
    .sort((x, y) => walkOrder(x) - walkOrder(y));
  let portals: TwoPortals;
  const needsPortals = routes.some(
    (route) => route.access.kind !== 'public' || route.url.includes(':') || route.example !== undefined,
  );
  beforeAll(async () => {
    if (needsPortals)
      portals = await makeTwoPortals(t, {
        rentals: routes.some(namesRentals),
        support: routes.some(namesSupport),
      });
    await spec.setup?.(t);
  });
  afterAll(() => t.close());

  /** Keys of portal A with every scope but an area's (features/api-keys), made once per area. */
  const keysWithout = new Map<string, Promise<string>>();
  const keyWithout = (area: string) => {
    let key = keysWithout.get(area);
    if (!key) {
      key = t
        .request({
          method: 'POST',
          url: '/api3/portal/apikeys',
          token: portals.a.admin,
          payload: {
            name: `All but ${area}`,
            scopes: API_KEY_SCOPES.filter((s) => !s.startsWith(`${area}:`)),
          },
        })
        .then((response) => response.json().secret as string);
      keysWithout.set(area, key);
    }
    return key;
  };

  const named = [
    ...Object.keys(spec.examples ?? {}),
    ...(spec.asBasicUser ?? []),
    ...Object.keys(spec.answers ?? {}),
    ...Object.keys(spec.unknownIds ?? {}),
  ];
  it('has routes, examples valid for them, and names no route it does not have', () => {
    expect(routes.length, `no route of the feature ${feature}`).toBeGreaterThan(0);
    expect(named.filter((key) => !routes.some((route) => described(route) === key))).toEqual([]);
    for (const route of routes.filter((r) => r.example)) {
      const schema = route.schema.body as { safeParse: (value: unknown) => { success: boolean } };
      expect(schema, described(route)).toBeDefined();
      expect(schema.safeParse(exampleBody(route, portals.a)).success, described(route)).toBe(true);
    }
  });
  for (const route of routes) {
    const name = described(route);
    const signedIn = route.access.kind !== 'public';
    /** The caller the route is for: staff on platform routes, the basic user on their own routes. */
    const rightCaller = () =>
      route.access.kind === 'platform'
        ? portals.staff
        : spec.asBasicUser?.includes(name)
          ? portals.a.user
          : portals.a.admin;
    const example = spec.examples?.[name];
    /** Whether the walker can send a valid body (or the route takes none). */
    const validBody = !route.schema.body || route.example !== undefined || example !== undefined;
    const call = (options: {
      token?: string;
      portal?: string;
      side?: 'own' | 'foreign' | 'unknown';
      payload?: unknown;
      query?: Record<string, string>;
    }) => {
      const side = options.side ?? 'own';
      const tenant: Tenant | undefined = portals && (side === 'foreign' ? portals.b : portals.a);
      const request: InjectOptions & { token?: string; portal?: string } = {
        method: route.method as InjectOptions['method'],
        url: portals ? fillUrl(route, side, portals) : route.url.replace(/:(\w+)|\*/g, 'unknown'),
        token: options.token,
        portal: options.portal,
        ...(options.query && { query: options.query }),
      };
      if (options.payload !== undefined) request.payload = options.payload as object;
      else if (example && tenant) {
        const { payload, headers } = example(tenant, t);
        request.payload = payload as object;
        request.headers = headers;
      } else if (route.example && tenant) request.payload = exampleBody(route, tenant) as object;
      else if (route.method === 'POST') request.payload = {};
      return t.request(request);
    };

    describe(name, () => {
      if (signedIn) {
        it('401 without a session, or with a tampered one', async () => {
          const anonymous = await call({});
          expect(anonymous.statusCode).toBe(401);
          expect(anonymous.json().error.code).toBe('unauthorized');
          const token = portals.a.admin;
          const tampered = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
          expect((await call({ token: tampered })).statusCode).toBe(401);
        });
      }

      if (route.schema.body || route.schema.querystring) {
        it(`400 for a ${route.schema.body ? 'body' : 'query'} that breaks its schema`, async () => {
          const token = signedIn ? rightCaller() : undefined;
          const response = route.schema.body
            ? await call({ token, payload: [] })
            : await call({ token, query: brokenQuery(route) });
          expect(response.statusCode, response.body).toBe(400);
        });
      }

      if (route.access.kind === 'portal' && route.access.role === 'admin') {
        it('403 for a basic user of the portal', async () => {
          const response = await call({ token: portals.a.user, portal: portals.a.portalId });
          expect(response.statusCode).toBe(403);
        });
      }
      if (route.access.kind === 'platform') {
        it('403 for a portal admin (platform staff only)', async () => {
          expect((await call({ token: portals.a.admin })).statusCode).toBe(403);
        });
      }

      if (signedIn) {
        it('403 acting in a portal the caller is no member of', async () => {
          const response = await call({ token: portals.a.admin, portal: portals.b.portalId });
          expect(response.statusCode).toBe(403);
          expect(response.json().error.code).toBe('portal_override_denied');
        });
      }
      if (signedIn && namesIds(route)) {
        it("403 or 404 with another portal's ids, never its data", async () => {
          const response = await call({ token: portals.a.admin, side: 'foreign' });
          expect([403, 404], `answered ${response.statusCode}`).toContain(response.statusCode);
          expect(response.body).not.toContain(FOREIGN_PORTAL_NAME);
        });
      }

      // API keys (features/api-keys): a key needs its scope for the route's area, acts only in its
      // own portal, and is refused on routes without an area and on account and platform routes.
      if (signedIn && route.access.kind === 'portal' && route.apiArea) {
        const area = route.apiArea;
        it(`403 for an API key of the portal without ${area} scopes`, async () => {
          const response = await call({ token: await keyWithout(area) });
          expect(response.statusCode, response.body).toBe(403);
          expect(response.json().error.code).toBe('api_key_scope_missing');
        });
        if (namesRecords(route)) {
          it("403 or 404 for another portal's API key, never this portal's data", async () => {
            const response = await call({ token: portals.b.apiKey });
            expect([403, 404], `answered ${response.statusCode}: ${response.body}`).toContain(
              response.statusCode,
            );
          });
        }
      } else if (signedIn) {
        it('403 for an API key, whatever its scopes (no key may use this route)', async () => {
          const response = await call({ token: portals.a.apiKey });
          expect(response.statusCode, response.body).toBe(403);
          expect(response.json().error.code).toBe('api_key_not_allowed');
        });
      }

      // An unknown id is looked for once the request is valid.
      const unknownId = spec.unknownIds?.[name];
      if (namesRecords(route) && validBody) {
        it(
          unknownId
            ? `${unknownId.status.join(' or ')} for an unknown id (${unknownId.why})`
            : '404 for an unknown id',
          async () => {
            const response = await call({ token: signedIn ? rightCaller() : undefined, side: 'unknown' });
            expect(unknownId?.status ?? [404], `answered ${response.statusCode}: ${response.body}`).toContain(
              response.statusCode,
            );
          },
        );
      }

      const answer = spec.answers?.[name];
      if (answer) {
        it(`answers ${answer.status.join(' or ')} (${answer.why})`, async () => {
          const response = await call({ token: signedIn ? rightCaller() : undefined });
          expect(answer.status, `answered ${response.statusCode}: ${response.body}`).toContain(
            response.statusCode,
          );
        });
      } else if (!validBody || hasUnfilledParams(route)) {
        // Without an example body (or a mailed token for its path) the walker cannot make a valid
        // request: it checks the route lets its callers through, and stands up to what it is sent.
        it('lets its callers through its access checks, and answers them without a 5xx', async () => {
          const response = await call({ token: signedIn ? rightCaller() : undefined });
          expect([401, 403], `answered ${response.statusCode}`).not.toContain(response.statusCode);
          expect(response.statusCode, response.body).toBeLessThan(500);
        });
      } else {
        it(`succeeds${route.example ? ' with its declared example' : ''} (2xx)`, async () => {
          const response = await call({ token: signedIn ? rightCaller() : undefined });
          expect(response.statusCode, response.body).toBeGreaterThanOrEqual(200);
          expect(response.statusCode, response.body).toBeLessThan(300);
        });
      }
    });
  }
}

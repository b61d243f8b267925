import {
  API_KEY_AREA_OF_FEATURE,
  PORTAL_OVERRIDE_HEADER,
  scopeFor,
  scopesGrant,
  type ApiKeyArea,
  type ApiKeyScope,
} from '@latchkey/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { resolveActingPortal } from '../tenancy/acting-portal';
import { authenticateSession } from '../identity/sessions';
import { apiKeyActor, authenticateApiKey, looksLikeApiKey, noteApiKeyUse } from '../identity/api-key-auth';
import { consume, type RateLimitStore } from '../rate-limits/rate-limiters';
import { AppError } from './errors';
import type { ActingPortal, RequestAuth } from './request-auth';

/**
 * What a route needs before its handler runs. Every API route declares one in its
 * `config.access`; the server refuses to start with a route that does not.
 * - public: anyone.
 * - account: a signed-in person, whatever portal (their own account, their memberships).
 * - portal: a signed-in person acting in a portal with at least the given role there.
 * - platform: platform staff (superAdmin) only.
 */
export type RouteAccess =
  | { kind: 'public' }
  | { kind: 'account' }
  | { kind: 'portal'; role: 'admin' | 'member' }
  | { kind: 'platform' };

export const access = {
  public: { kind: 'public' },
  account: { kind: 'account' },
  portalMember: { kind: 'portal', role: 'member' },
  portalAdmin: { kind: 'portal', role: 'admin' },
  platform: { kind: 'platform' },
} as const satisfies Record<string, RouteAccess>;

export type { ActingPortal, RequestApiKey, RequestAuth } from './request-auth';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** The body arrives as a sealed envelope (see http/sealed-body.ts). */
    sealed?: boolean;
    /** A valid request, for the tests the route registry drives (see RouteExample). */
    example?: RouteExample;
    /** What the path's `:id` (and `:imageId`) names: required where the path has one (see IdKind). */
    ids?: Partial<Record<'id' | 'imageId', IdKind>>;
    /**
     * The API key area of a portal route (its scope: `<area>:read` for GET, `<area>:write` else),
     * when it is not its feature's (API_KEY_AREA_OF_FEATURE); null refuses keys. The registry fills
     * in the area it settles on, so every route's config carries it (http/openapi.ts reads it).
     */
    apiArea?: ApiKeyArea | null;
    /**
     * A POST that changes nothing (a collection's list and ls: brief §7 posts their filters): an API
     * key needs its area's read scope, as for a GET.
     */
    readsOnly?: boolean;
  }
  interface FastifyRequest {
    auth: RequestAuth | null;
  }
  interface FastifyInstance {
    /** The feature whose routes this plugin registers (see routesOfFeature). */
    routeFeature?: string;
  }
}

/**
 * Names the feature (its folder under src/features) whose routes the calling plugin registers: the
 * first line of every routes plugin. The registry records it with each route and the server refuses
 * an API route without one, so each feature's spec (test/specs/<feature>.spec.test.ts) walks all of
 * its routes. A decoration of the plugin's own instance, so it names only the routes registered there.
 */
export function routesOfFeature(app: FastifyInstance, feature: string): void {
  app.decorate('routeFeature', feature);
}

/** Where the API document and its browsable page are served (base/http/openapi.ts): no feature's. */
const API_DOCS_FEATURE = 'openapi';

/**
 * A valid request body, declared with the route, so the registry-driven tests (the feature specs,
 * test/route-spec.ts) get past validation to the ownership checks without a central list. A string
 * written `{deviceId}` (any id the tests' portals have: userId, groupId, listingId…) stands for the
 * calling portal's id, or another portal's when the test plays the other tenant.
 */
export interface RouteExample {
  body: unknown;
}

/**
 * What an id in a path names. `:deviceId` or `:userId` say it themselves; `:id` does not, so a route
 * with one declares it (`config.ids`), and the server refuses to start otherwise. The tests the
 * route registry drives (the feature specs, fuzz) fill each id with the right record of one portal or
 * another from this, so a new route needs no central edit.
 */
export type IdKind =
  | 'portalId'
  | 'userId'
  | 'deviceId'
  | 'groupId'
  | 'lockoutId'
  | 'rfidId'
  | 'companyCodeId'
  | 'fingerprintId'
  | 'keyId'
  | 'alertRuleId'
  | 'billId'
  | 'listingId'
  | 'categoryId'
  | 'listingImageId'
  | 'reviewId'
  | 'calendarBlockId'
  | 'landingImageId'
  | 'productId'
  | 'checkoutId'
  | 'supportRequestId'
  | 'supportImageId'
  | 'webhookEndpointId'
  | 'webhookDeliveryId'
  | 'clientErrorId'
  | 'accessRequestId'
  | 'readerId'
  | 'enrollmentId'
  | 'reportScheduleId'
  | 'inviteId'
  | 'zoneId'
  | 'apiKeyId';

/** Path parameters whose name does not say what they name. */
const UNNAMED_IDS = ['id', 'imageId'] as const;

/** One line per API route: what the route registry knows, for docs and the feature specs. */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** The feature folder whose plugin registered it (routesOfFeature), which its spec is named after. */
  feature: string;
  access: RouteAccess;
  sealed: boolean;
  /** The route's example request (config.example), if it declares one. */
  example?: RouteExample;
  /** What its `:id` (and `:imageId`) names (config.ids). */
  ids: Partial<Record<'id' | 'imageId', IdKind>>;
  /** The area whose scope an API key needs on this portal route; null: keys are refused. */
  apiArea?: ApiKeyArea | null;
  /** The route's request schemas (zod), so tests can check every field (safe-text-registry.test.ts). */
  schema: RouteRequestSchemas;
}

/** What a route validates in a request: zod schemas, as the routes declare them. */
export interface RouteRequestSchemas {
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
  headers?: unknown;
}

/** The signed-in person; for handlers of non-public routes. */
export function signedIn(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw AppError.unauthorized();
  return request.auth;
}

/** The portal the request acts in; for handlers of portal routes. */
export function actingPortal(request: FastifyRequest): ActingPortal {
  const acting = signedIn(request).acting;
  if (!acting) throw AppError.forbidden('You are not a member of any portal');
  return acting;
}

/**
 * For portal-member routes about one person that the person may read about themselves (their
 * locks, their code): admins read anyone's, a basic user only their own.
 */
export function requireSelfOrAdmin(request: FastifyRequest, userId: string): void {
  if (actingPortal(request).role === 'admin') return;
  if (signedIn(request).user.id !== userId) throw AppError.forbidden('You may only see your own access');
}

/**
 * For a route whose change reaches past its own area (a bulk access change names a lock or a
 * group): a request made with an API key also needs `scope`, else 403 `api_key_scope_missing`, as
 * the route's own area is checked (registerAccessControl). A person's session passes.
 */
export function requireApiKeyScope(request: FastifyRequest, scope: ApiKeyScope): void {
  if (!mayReadWithKey(request, scope)) throw scopeMissing(scope);
}

/** The refusal of a key without `scope`, wherever it is checked. */
function scopeMissing(scope: ApiKeyScope): AppError {
  return new AppError('api_key_scope_missing', `This API key lacks the scope ${scope}`, 403);
}

/**
 * Whether a request may see what `scope` guards inside an answer of another area (a member's door
 * code is a credential, in the people area's answer): a person's session may (the route's role
 * decides), an API key only with that scope.
 */
export function mayReadWithKey(request: FastifyRequest, scope: ApiKeyScope): boolean {
  const key = request.auth?.apiKey;
  return !key || scopesGrant(key.scopes, scope);
}

/** Who changes what, where and from which address: what every audited service call needs. */
export interface ChangeContext {
  portalId: string;
  actorUserId: string;
  ip: string;
  /** The reseller the actor acts through in this portal (ActingPortal.viaResellerId), if so. */
  viaResellerId?: string;
  /** The API key the change is made with (audited as the key; actorUserId is its stand-in's id). */
  apiKeyId?: string;
}

/** The change context of a portal request, for services that write the admin change log. */
export function changeContext(request: FastifyRequest): ChangeContext {
  const acting = actingPortal(request);
  return {
    portalId: acting.portal.id,
    actorUserId: signedIn(request).user.id,
    ip: request.ip,
    ...(acting.viaResellerId && { viaResellerId: acting.viaResellerId }),
    ...(request.auth?.apiKey && { apiKeyId: request.auth.apiKey.id }),
  };
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** API keys' per-key limit: where it counts (Redis with REDIS_URL) and how many requests a minute. */
export interface ApiKeyLimits {
  store: RateLimitStore;
  perMinute: number;
}

/** The area whose scope a key needs on a route: its own (config.apiArea), else its feature's. */
function apiAreaOf(access: RouteAccess, feature: string, declared: ApiKeyArea | null | undefined) {
  if (access.kind !== 'portal') return null;
  if (declared !== undefined) return declared;
  return API_KEY_AREA_OF_FEATURE[feature] ?? null;
}

/**
 * Keeps the route registry and enforces each route's access before validation, so an
 * anonymous call gets 401 and a wrong role 403 whatever its body.
 */
export function registerAccessControl(
  app: FastifyInstance,
  apiPrefix: string,
  apiKeyLimits?: ApiKeyLimits,
): RegisteredRoute[] {
  const registry: RegisteredRoute[] = [];
  app.decorateRequest('auth', null);
  const keyLimiter: RateLimiterAbstract | null = apiKeyLimits
    ? apiKeyLimits.store.limiter({ keyPrefix: 'api-key', points: apiKeyLimits.perMinute, duration: 60 })
    : null;

  // A function, not an arrow: Fastify calls it with the instance the route is registered on.
  app.addHook('onRoute', function (route) {
    if (!route.url.startsWith(`${apiPrefix}/`) && route.url !== apiPrefix) return;
    // The API docs pages come from @fastify/swagger-ui, which cannot declare access itself.
    if (route.url.startsWith(`${apiPrefix}/docs`))
      route.config = { ...route.config, access: { kind: 'public' } };
    const config = (route.config ?? {}) as {
      access?: RouteAccess;
      sealed?: boolean;
      example?: RouteExample;
      ids?: Partial<Record<'id' | 'imageId', IdKind>>;
      apiArea?: ApiKeyArea | null;
    };
    if (!config.access) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no access (config.access)`);
    }
    for (const name of UNNAMED_IDS) {
      if (new RegExp(`/:${name}(/|$)`).test(route.url) && !config.ids?.[name]) {
        throw new Error(
          `Route ${String(route.method)} ${route.url} does not say what :${name} names (config.ids)`,
        );
      }
    }
    const isApiDocument =
      route.url.startsWith(`${apiPrefix}/docs`) || route.url === `${apiPrefix}/openapi.json`;
    const feature = isApiDocument ? API_DOCS_FEATURE : this.routeFeature;
    if (!feature) {
      throw new Error(
        `Route ${String(route.method)} ${route.url} belongs to no feature (routesOfFeature in its plugin)`,
      );
    }
    const apiArea = apiAreaOf(config.access, feature, config.apiArea);
    route.config = { ...route.config, apiArea };
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const { body, querystring, params, headers } = (route.schema ?? {}) as RouteRequestSchemas;
      registry.push({
        method,
        url: route.url,
        feature,
        access: config.access,
        sealed: config.sealed === true,
        ...(config.example && { example: config.example }),
        ids: config.ids ?? {},
        apiArea,
        schema: { body, querystring, params, headers },
      });
    }
  });

  app.addHook('onRequest', async (request) => {
    const routeAccess = request.routeOptions.config.access;
    if (!routeAccess || routeAccess.kind === 'public') return;

    const token = bearerToken(request);
    if (!token) throw AppError.unauthorized();
    if (looksLikeApiKey(token)) return authenticateKeyRequest(request, token, routeAccess);
    const person = await authenticateSession(app.db, app.secrets.jwtKey, token);
    const { user, impersonator } = person;
    // In a support session the staff member has the person's rights, not their own.
    const isSuperAdmin = user.platform_role === 'superAdmin';
    const override = request.headers[PORTAL_OVERRIDE_HEADER];
    const { acting, memberships } = await resolveActingPortal(
      app.db,
      user,
      typeof override === 'string' ? override : null,
      person.memberships,
    );
    request.auth = { user, isSuperAdmin, memberships, acting, impersonator, apiKey: null };

    if (routeAccess.kind === 'platform' && !isSuperAdmin) {
      throw AppError.forbidden('Only platform staff may do this');
    }
    if (routeAccess.kind === 'portal') {
      const current = actingPortal(request);
      if (routeAccess.role === 'admin' && current.role !== 'admin') {
        throw AppError.forbidden('Only portal admins may do this');
      }
    }
  });

  /**
   * A request made with an API key (docs/decisions.md "API keys"): it acts in its key's portal as
   * an admin, only on portal routes whose area its scopes grant; never on account or platform routes
   * nor in another portal. Rate-limited per key; its last use written at most once a minute.
   */
  async function authenticateKeyRequest(request: FastifyRequest, token: string, routeAccess: RouteAccess) {
    const key = await authenticateApiKey(app.db, token, request.ip);
    if (keyLimiter) await consume(keyLimiter, key.row.id);
    if (routeAccess.kind !== 'portal') {
      throw new AppError(
        'api_key_not_allowed',
        'API keys may not be used here: only on portal routes (sign in as a person)',
        403,
      );
    }
    const override = request.headers[PORTAL_OVERRIDE_HEADER];
    if (typeof override === 'string' && override !== key.portal.id) {
      throw new AppError('api_key_not_allowed', 'An API key acts only in its own portal', 403);
    }
    const area = request.routeOptions.config.apiArea;
    if (!area) {
      throw new AppError('api_key_not_allowed', 'API keys may not be used on this route', 403);
    }
    const needed = scopeFor(area, request.method, request.routeOptions.config.readsOnly === true);
    if (!scopesGrant(key.scopes, needed)) throw scopeMissing(needed);
    request.auth = {
      user: apiKeyActor(key.row),
      isSuperAdmin: false,
      memberships: [],
      acting: { portal: key.portal, role: 'admin', viaPlatformRole: false },
      impersonator: null,
      apiKey: { id: key.row.id, name: key.row.name, prefix: key.row.prefix, scopes: key.scopes },
    };
    await noteApiKeyUse(app.db, key.row, request.ip);
  }

  return registry;
}

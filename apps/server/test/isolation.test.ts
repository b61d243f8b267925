import crypto from 'node:crypto';
import {
  liveAudienceRuleOf,
  livePortalMessageSchema,
  type LiveAudience,
  type LivePortalMessageType,
} from '@latchkey/shared';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LivePortalMessageBody } from '../src/features/live/live-hub';
import type { RegisteredRoute } from '../src/base/http/access';
import { LiveClient, listen } from './live-client';
import { closedBillFor } from './billing-helpers';
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
  billId: string;
  listingId: string;
  stayId: string;
  categoryId: string;
  accessListId: string;
  listingImageId: string;
  landingImageId: string;
  feedId: string;
  reviewId: string;
}
let a: Tenant & { user: string };
let b: Tenant;
let staff: string;
let routes: RegisteredRoute[];
const FOREIGN_PORTAL_NAME = 'Portal B private name';
const UNKNOWN_COMMAND_ID = crypto.randomUUID();

/**
 * What a path parameter names: `:id` and `:imageId` as the route declares (config.ids, which the
 * server requires), the others by their name.
 */
function paramKind(
  route: RegisteredRoute,
  name: string,
): keyof Tenant | 'status' | 'commandId' | 'year' | 'month' | 'productId' {
  const declared = route.ids[name as keyof RegisteredRoute['ids']];
  if (declared === 'checkoutId') throw new Error(`isolation test: no checkout for ${route.url}`);
  if (declared) return declared;
  if (name === 'deviceId') return 'deviceId';
  if (name === 'commandId') return 'commandId';
  if (name === 'userId') return 'userId';
  if (name === 'status') return 'status';
  if (name === 'inviteId') return 'inviteId';
  if (name === 'year' || name === 'month') return name;
  // Rentals (issue 12): a listing's requests, access list, feeds and reviews.
  if (name === 'reqId') return 'stayId';
  if (name === 'entryId') return 'accessListId';
  if (name === 'feedId') return 'feedId';
  if (name === 'reviewId') return 'reviewId';
  throw new Error(`isolation test: no values for path parameter :${name} of ${route.url}`);
}

/** The URL with ids from portal A (the caller's) or portal B (another tenant's). */
function fillUrl(route: RegisteredRoute, side: 'own' | 'foreign'): string {
  return route.url.replace(/:(\w+)/g, (_, name: string) => {
    const kind = paramKind(route, name);
    if (kind === 'status') return 'suspended';
    // A command id alone opens nothing: the lock's id beside it decides whose command it is.
    if (kind === 'commandId') return UNKNOWN_COMMAND_ID;
    if (kind === 'productId') return 'smart-lock';
    // This month (its running bill); on the other side a month before any portal existed (404).
    if (kind === 'year') return side === 'own' ? String(new Date().getUTCFullYear()) : '2000';
    if (kind === 'month') return side === 'own' ? String(new Date().getUTCMonth() + 1) : '1';
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
  const rental = await makeRental(admin.token, deviceId);
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
      billId: await closedBillFor(t, admin.portalId),
      ...rental,
    },
    memberToken: member.token,
  };
}

/** A published listing of the lock with a category, a request, an access list entry and images. */
async function makeRental(token: string, deviceId: string) {
  const post = (url: string, payload: object) => t.request({ method: 'POST', url, token, payload });
  const category = await post('/api3/listingCategory/new', { name: 'Flats' });
  const listing = await post('/api3/listing/new', {
    title: 'Private flat',
    deviceIds: [deviceId],
    categoryId: category.json()._id,
    published: true,
  });
  const listingId: string = listing.json()._id;
  const entry = await post(`/api3/listing/${listingId}/accessList/new`, { name: 'Cleaner' });
  const stay = await t.request({
    method: 'POST',
    url: `/api3/device/${listingId}/request`,
    payload: { name: 'Guest', email: 'guest@example.com', startDate: inDays(30), endDate: inDays(33) },
    remoteAddress: `10.7.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`,
  });
  const image = (url: string) =>
    t.request({ method: 'POST', url, token, payload: TINY_PNG, headers: { 'content-type': 'image/png' } });
  const listingImage = await image(`/api3/listing/${listingId}/image`);
  const landingImage = await image(`/api3/device/${deviceId}/sharelock/landing/image`);
  const feed = await post(`/api3/listing/${listingId}/ical/feed/new`, {
    name: 'Airbnb',
    url: 'https://calendar.example.invalid/private.ics',
  });
  // A stay that is over, and its guest's review.
  const past = await t.request({
    method: 'POST',
    url: `/api3/device/${listingId}/request`,
    payload: { name: 'Past Guest', email: 'past@example.com', startDate: inDays(40), endDate: inDays(42) },
    remoteAddress: `10.8.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`,
  });
  const pastId = past.json()._id as string;
  await post(`/api3/device/${listingId}/request/${pastId}`, { action: 'approve' });
  await t.app.db
    .updateTable('stays')
    .set({ start_date: inDays(-3), end_date: inDays(-1) })
    .where('id', '=', pastId)
    .execute();
  const review = await t.request({
    method: 'POST',
    url: `/api3/review/${t.app.rental.deps.tokens.sign('review', pastId, 1)}`,
    payload: { rating: 5, text: 'Lovely' },
    remoteAddress: `10.9.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`,
  });
  for (const response of [category, listing, entry, stay, listingImage, landingImage, feed, past, review]) {
    if (response.statusCode !== 201) throw new Error(`rental setup failed: ${response.body}`);
  }
  return {
    listingId,
    stayId: stay.json()._id as string,
    categoryId: category.json()._id as string,
    accessListId: entry.json()._id as string,
    listingImageId: listingImage.json()._id as string,
    landingImageId: landingImage.json()._id as string,
    feedId: feed.json()._id as string,
    reviewId: (
      await t.app.db
        .selectFrom('reviews')
        .select('id')
        .where('stay_id', '=', pastId)
        .executeTakeFirstOrThrow()
    ).id,
  };
}

/** The UTC date `days` from today. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A 1×1 PNG. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const inviteBody = () => ({
  name: 'Guest',
  days: [1, 2],
  start: '09:00',
  end: '17:00',
  startDate: '2030-01-01',
  endDate: '2030-01-31',
});

/**
 * The route's example body (declared with the route: config.example) with its `{deviceId}`-style
 * ids filled in from one side, so ids in a body come from the same side as the ids in the path.
 */
function exampleBody(route: RegisteredRoute, tenant: Tenant): unknown {
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const name = /^\{(\w+)\}$/.exec(value)?.[1];
      if (!name) return value;
      if (!(name in tenant)) throw new Error(`isolation test: no id {${name}} for ${described(route)}`);
      return tenant[name as keyof Tenant];
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fill(inner)]));
    return value;
  };
  return route.example && fill(route.example.body);
}

/** Routes a person calls about themselves: the right person to call them is the member, with their id. */
const SELF_ROUTES = new Set(['POST /api3/user/:id/portal']);

function call(
  route: RegisteredRoute,
  options: { token?: string; portal?: string; side?: 'own' | 'foreign' },
) {
  const request: InjectOptions & { token?: string; portal?: string } = {
    method: route.method as InjectOptions['method'],
    url: fillUrl(route, options.side ?? 'own'),
    token: options.token,
    portal: options.portal,
  };
  if (route.example) request.payload = exampleBody(route, options.side === 'foreign' ? b : a) as object;
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

/** What a live message is about: a lock and a person. */
interface LiveSubject {
  deviceId: string;
  userId: string;
}

/**
 * An example of each live portal message type, about the given lock and person: a new type does
 * not compile until it has one, and is then sent to everyone below.
 */
const exampleLiveMessages: {
  [T in LivePortalMessageType]: (about: LiveSubject) => Extract<LivePortalMessageBody, { type: T }>;
} = {
  notification: (about) => ({
    type: 'notification',
    notification: {
      _id: crypto.randomUUID(),
      at: new Date().toISOString(),
      kind: 'alert',
      title: 'Forced door',
      message: `Person ${about.userId} opened it at night`,
      deviceId: about.deviceId,
    },
  }),
  'device.status': (about) => ({
    type: 'device.status',
    device: {
      _id: about.deviceId,
      name: 'Front door',
      model: 'latchkey-sim',
      serial: 'SN-PRIVATE',
      timeZone: 'UTC',
      lowBatteryLevel: 20,
      battery: 15,
      online: true,
      lastSeenAt: new Date().toISOString(),
      lockState: 'locked',
      firmware: 'fw-private',
      createdAt: new Date().toISOString(),
    },
  }),
  'stay.changed': () => ({
    type: 'stay.changed',
    stay: {
      _id: crypto.randomUUID(),
      listingId: crypto.randomUUID(),
      state: 'approved',
      accessState: 'ready',
    },
  }),
  'device.event': (about) => ({
    type: 'device.event',
    event: {
      _id: crypto.randomUUID(),
      eventId: crypto.randomUUID(),
      device: { _id: about.deviceId, name: 'Front door' },
      type: 'denied',
      method: 'code',
      user: { _id: about.userId, name: 'Somebody' },
      credentialId: null,
      reason: 'outside_schedule',
      occurredAt: new Date().toISOString(),
      receivedAt: new Date().toISOString(),
    },
  }),
};

/**
 * The live channel, generated from its message schema: every portal message type, about someone
 * else and about the basic user, reaches the portal's admins whole, the basic user only when its
 * audience (LIVE_AUDIENCES) includes them, and another portal's admin never.
 */
describe('live channel', () => {
  const types = livePortalMessageSchema.options.map((option) => option.shape.type.value);
  const sockets: LiveClient[] = [];
  let url: string;
  let adminA: LiveClient;
  let userA: LiveClient;
  let adminB: LiveClient;
  /** A lock of portal A that its basic user does not reach. */
  let unreachedDeviceId: string;

  const join = async (token: string, portalId: string) => {
    const client = await LiveClient.open(url);
    sockets.push(client);
    await client.join(token, portalId);
    return client;
  };
  /** Their own lock event: the last message of a round, which every socket of portal A receives. */
  const markerFor = (tenant: Tenant) =>
    exampleLiveMessages['device.event']({ deviceId: tenant.deviceId, userId: tenant.userId });
  const waitForMarker = (client: LiveClient, marker: ReturnType<typeof markerFor>, from: number) =>
    client.waitFor((m) => m.type === 'device.event' && m.event._id === marker.event._id, 'the marker', {
      from,
    });

  beforeAll(async () => {
    url = await listen(t);
    const lock = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: a.admin,
      payload: { name: 'Server room', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    unreachedDeviceId = lock.json().device._id;
    adminA = await join(a.admin, a.portalId);
    userA = await join(a.user, a.portalId);
    adminB = await join(b.admin, b.portalId);
  });
  afterAll(() => {
    for (const socket of sockets) socket.close();
  });

  it('has an audience and an example for every portal message type', () => {
    expect(types.length).toBeGreaterThan(0);
    for (const type of types) {
      expect(liveAudienceRuleOf(type), type).not.toBeNull();
      expect(Object.keys(exampleLiveMessages), type).toContain(type);
    }
  });

  it("refuses another portal's admin a subscription to the portal", async () => {
    const client = await LiveClient.open(url);
    sockets.push(client);
    client.send({ type: 'auth', token: b.admin });
    await client.next('ready');
    await expect(client.subscribe(a.portalId)).rejects.toThrow('You may not act in that portal');
  });

  it('sends a basic user only what concerns them, and another portal nothing, for every message type', async () => {
    const kinds = new Set<LiveAudience['kind']>();
    for (const type of types) {
      const example = exampleLiveMessages[type] as (about: LiveSubject) => LivePortalMessageBody;
      const aboutOthers = example({ deviceId: unreachedDeviceId, userId: crypto.randomUUID() });
      const aboutUser = example({ deviceId: a.deviceId, userId: a.userId });
      const marker = markerFor(a);
      const foreignMarker = markerFor(b);
      const from = {
        admin: adminA.messages.length,
        user: userA.messages.length,
        foreign: adminB.messages.length,
      };
      for (const message of [aboutOthers, aboutUser, marker]) await t.app.live.publish(a.portalId, message);
      await t.app.live.publish(b.portalId, foreignMarker);
      // Each socket gets its messages in publishing order: once the marker is in, the round is.
      await waitForMarker(adminA, marker, from.admin);
      await waitForMarker(userA, marker, from.user);
      await waitForMarker(adminB, foreignMarker, from.foreign);

      const inPortalA = (message: LivePortalMessageBody) =>
        livePortalMessageSchema.parse({ ...message, portalId: a.portalId });
      const rule = liveAudienceRuleOf(type)!;
      const audience = rule.audience(inPortalA(aboutUser));
      kinds.add(audience.kind);
      const forUser =
        audience.kind === 'admins'
          ? []
          : [rule.memberView ? rule.memberView(inPortalA(aboutUser)) : inPortalA(aboutUser)];
      expect(adminA.portalMessages(from.admin), type).toEqual(
        [aboutOthers, aboutUser, marker].map(inPortalA),
      );
      expect(userA.portalMessages(from.user), type).toEqual([...forUser, inPortalA(marker)]);
      expect(adminB.portalMessages(from.foreign), type).toEqual([
        livePortalMessageSchema.parse({ ...foreignMarker, portalId: b.portalId }),
      ]);
    }
    // The hub's filter was exercised for each kind of audience.
    expect([...kinds].sort()).toEqual(['admins', 'lockMembers', 'person']);
  });
});

describe('route registry', () => {
  it('knows the API routes, each with a declared access', () => {
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.map(described)).toContain('GET /api3/portal/users');
  });

  it('has examples that are valid requests of their routes (declared with the route)', () => {
    const withExamples = routes.filter((r) => r.example);
    expect(withExamples.length).toBeGreaterThan(30);
    for (const route of withExamples) {
      const schema = route.schema.body as { safeParse: (value: unknown) => { success: boolean } };
      expect(schema, described(route)).toBeDefined();
      expect(schema.safeParse(exampleBody(route, a)).success, described(route)).toBe(true);
    }
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
    const namesIds = (r: RegisteredRoute) => r.url.includes(':') || r.example !== undefined;
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

import crypto from 'node:crypto';
import { API_KEY_SCOPES } from '@latchkey/shared';
import type { RegisteredRoute } from '../src/base/http/access';
import { closedBillFor } from './billing-helpers';
import { makeMember, makeOwner, makeStaff } from './factories';
import { multipartBody } from './support-helpers';
import type { TestApp } from './test-app';

// Two portals with one of everything, for the feature specs (route-spec.ts: every route is called
// with one portal's records or the other's) and isolation.test.ts's live channel. People are
// inserted by the factories; the records go through the API, as an admin makes them, so each has
// what its service adds (a lock's secret, a card's holder and credential sets, a stay's state).

/** The ids of one portal's records, by what they name (IdKind and the other path parameters). */
export interface Tenant {
  /** The session of the portal's owner, an admin. */
  admin: string;
  /** The owner's address (their password is FACTORY_PASSWORD). */
  adminEmail: string;
  portalId: string;
  /** A basic user of the portal, who holds the card, fingerprint and key and reaches the lock. */
  userId: string;
  deviceId: string;
  groupId: string;
  lockoutId: string;
  rfidId: string;
  /** The card's number (a card's number cannot change: an edit names the same one). */
  rfidUid: string;
  companyCodeId: string;
  fingerprintId: string;
  keyId: string;
  inviteId: string;
  alertRuleId: string;
  /** A scheduled report (features/reports), mailed weekly to the owner. */
  reportScheduleId: string;
  /** A webhook endpoint (features/webhooks) taking only test events, and its test delivery. */
  webhookEndpointId: string;
  webhookDeliveryId: string;
  /** An API key of the portal with every scope (features/api-keys), and its secret. */
  apiKeyId: string;
  apiKey: string;
  /** A paired desk reader (features/readers), and an enrollment it was asked for (for the basic user). */
  readerId: string;
  enrollmentId: string;
  /** A zone (features/zones) holding the lock. */
  zoneId: string;
  billId: string;
  listingId: string;
  stayId: string;
  categoryId: string;
  accessListId: string;
  listingImageId: string;
  landingImageId: string;
  feedId: string;
  reviewId: string;
  /** Nights the owner blocked on the listing's calendar (calendarEvent). */
  calendarBlockId: string;
  /** A support request its basic user filed, with an image (made only with `support`). */
  supportRequestId: string;
  supportImageId: string;
  /** A client error report the portal's admin's page sent (no portal's: platform staff read them). */
  clientErrorId: string;
  /** The basic user's waiting request for access to the lock. */
  accessRequestId: string;
}

/** Portal A (the caller's: `user` is its basic user's session), portal B (another tenant's) and staff. */
export interface TwoPortals {
  a: Tenant & { user: string };
  b: Tenant;
  /** A platform superAdmin's session. */
  staff: string;
}

/** The name of portal B, which no answer to portal A may contain. */
export const FOREIGN_PORTAL_NAME = 'Portal B private name';

/** The records of the rental features: made only for tests that name one (images cost the most). */
export const RENTAL_IDS = [
  'listingId',
  'stayId',
  'categoryId',
  'accessListId',
  'listingImageId',
  'landingImageId',
  'feedId',
  'reviewId',
  'calendarBlockId',
] as const;

/** The support records (issue 20): made only for specs that name one (an image costs sharp's start). */
export const SUPPORT_IDS = ['supportRequestId', 'supportImageId'] as const;

/**
 * Two portals with one of everything, and platform staff; without `rentals`, the rental records
 * (RENTAL_IDS) are left out, and a test that names one fails saying so.
 */
export async function makeTwoPortals(
  t: TestApp,
  { rentals = true, support = false } = {},
): Promise<TwoPortals> {
  const tenantA = await makeTenant(t, undefined, rentals, support);
  const tenantB = await makeTenant(t, FOREIGN_PORTAL_NAME, rentals, support);
  return {
    a: { ...tenantA.tenant, user: tenantA.memberToken },
    b: tenantB.tenant,
    staff: (await makeStaff(t)).token,
  };
}

/** A portal with an admin, a member, a lock and one of every record about them. */
async function makeTenant(t: TestApp, portalName: string | undefined, rentals: boolean, support = false) {
  const admin = await makeOwner(t, portalName ? { portalName } : {});
  const member = await makeMember(t, admin.portalId);
  const post = async (url: string, payload: object) => {
    const response = await t.request({ method: 'POST', url, token: admin.token, payload });
    if (response.statusCode >= 300) throw new Error(`fixture POST ${url} failed: ${response.body}`);
    return response.json();
  };
  const device = await post('/api3/portal/device/new', {
    name: 'Front door',
    model: 'latchkey-sim',
    timeZone: 'UTC',
  });
  const deviceId: string = device.device._id;
  const group = await post('/api3/portal/group', { name: 'Staff' });
  const rfidUid = crypto.randomBytes(4).toString('hex').toUpperCase();
  const card = await post('/api3/portal/rfid', { uid: rfidUid, userId: member.userId });
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
  const reportSchedule = await post('/api3/portal/report/schedules', { kind: 'health', frequency: 'weekly' });
  const webhookEndpoint = await post('/api3/portal/webhooks', {
    url: 'https://receiver.example.invalid/hooks',
    eventTypes: ['webhook.test'],
  });
  const webhookDelivery = await post(`/api3/portal/webhooks/${webhookEndpoint._id}/test`, {});
  const apiKey = await post('/api3/portal/apikeys', { name: 'Every scope', scopes: [...API_KEY_SCOPES] });
  const reader = await post('/api3/portal/reader', { name: 'Front desk', kind: 'both' });
  // The reader says it is online as the broker would hand it over; enrollments need it online.
  await t.app.readers.handle({
    readerId: reader.reader._id,
    topic: 'status',
    payload: Buffer.from(JSON.stringify({ online: true, firmware: 'fixture', ts: new Date().toISOString() })),
  });
  const enrollment = await post(`/api3/portal/reader/${reader.reader._id}/enroll`, {
    kind: 'rfid',
    userId: member.userId,
  });
  const clientError = await t.request({
    method: 'POST',
    url: '/api3/clientErrors',
    payload: { message: `TypeError: ${portalName ?? 'portal A'} broke`, stack: '', route: '/app' },
    remoteAddress: randomAddress(),
  });
  if (clientError.statusCode !== 202) throw new Error(`fixture client error failed: ${clientError.body}`);
  const accessRequest = await t.request({
    method: 'POST',
    url: '/api3/portal/accessRequest',
    token: member.token,
    payload: { deviceId, note: 'Weekends too, please' },
  });
  if (accessRequest.statusCode !== 201)
    throw new Error(`fixture access request failed: ${accessRequest.body}`);
  const zone = await post('/api3/portal/zone', { name: 'Main building', timeZone: 'UTC' });
  await post(`/api3/zone/${zone._id}/devices`, { add: [deviceId] });
  const rental = rentals
    ? await makeRental(t, admin.token, deviceId)
    : (Object.fromEntries(RENTAL_IDS.map((kind) => [kind, undefined])) as unknown as Awaited<
        ReturnType<typeof makeRental>
      >);
  return {
    tenant: {
      admin: admin.token,
      adminEmail: admin.email,
      portalId: admin.portalId,
      userId: member.userId,
      deviceId,
      groupId: group._id,
      lockoutId: lockout._id,
      rfidId: card._id,
      rfidUid,
      companyCodeId: companyCode._id,
      fingerprintId: fingerprint._id,
      keyId: key._id,
      inviteId: invite._id,
      alertRuleId: alertRule._id,
      reportScheduleId: reportSchedule._id,
      webhookEndpointId: webhookEndpoint._id,
      webhookDeliveryId: webhookDelivery._id,
      apiKeyId: apiKey.key._id,
      apiKey: apiKey.secret,
      readerId: reader.reader._id,
      enrollmentId: enrollment._id,
      clientErrorId: clientError.json()._id,
      accessRequestId: accessRequest.json()._id,
      zoneId: zone._id,
      billId: await closedBillFor(t, admin.portalId),
      ...rental,
      ...(support ? await makeSupportRequest(t, member.token) : {}),
    } as Tenant,
    memberToken: member.token,
  };
}

/** A support request the basic user filed, with one image. */
async function makeSupportRequest(t: TestApp, token: string) {
  const { payload, headers } = multipartBody(
    { type: 'lock', description: 'The door sticks', navId: '/user' },
    [{ bytes: TINY_PNG }],
  );
  const response = await t.request({ method: 'POST', url: '/api3/portal/support', token, payload, headers });
  if (response.statusCode !== 201) throw new Error(`fixture support request failed: ${response.body}`);
  const request = response.json();
  return { supportRequestId: request._id as string, supportImageId: request.images[0]._id as string };
}

/** A published listing of the lock with a category, a request, an access list entry and images. */
async function makeRental(t: TestApp, token: string, deviceId: string) {
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
    remoteAddress: randomAddress(),
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
    remoteAddress: randomAddress(),
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
    remoteAddress: randomAddress(),
  });
  const block = await post(`/api3/device/${listingId}/calendar`, {
    action: 'block',
    // Nights no test asks for (the stays' spec requests +60 days).
    startDate: inDays(500),
    endDate: inDays(502),
    note: 'Painting',
  });
  if (block.statusCode !== 200) throw new Error(`rental setup failed: ${block.body}`);
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
    calendarBlockId: (block.json() as { block: { _id: string } }).block._id,
  };
}

/** A guest's own address: public requests are limited per address. */
const randomAddress = () => `10.7.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;

/** The UTC date `days` from today. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const inviteBody = () => ({
  name: 'Guest',
  email: 'invited-guest@example.com',
  days: [1, 2],
  start: '09:00',
  end: '17:00',
  startDate: '2030-01-01',
  endDate: '2030-01-31',
});

/** A path parameter the fixtures have no record for: the route is called with a stand-in. */
const UNKNOWN_VALUE = 'unknown';
/** A command id alone opens nothing: the lock's id beside it decides whose command it is. */
const UNKNOWN_COMMAND_ID = crypto.randomUUID();

/** What a path parameter is filled with, when it does not name a record of a portal. */
type OtherParam = 'status' | 'commandId' | 'year' | 'month' | 'productId' | 'size' | 'unknown';

/**
 * What a path parameter names: `:id` and `:imageId` as the route declares (config.ids, which the
 * server requires), the others by their name; `unknown` for tokens and links no portal record
 * fills (a public route's mailed token, a feed's secret name).
 */
export function paramKind(route: RegisteredRoute, name: string): keyof Tenant | OtherParam {
  const declared = route.ids[name as keyof RegisteredRoute['ids']];
  if (declared === 'checkoutId') return 'unknown';
  if (declared) return declared;
  const byName: Record<string, keyof Tenant | OtherParam> = {
    deviceId: 'deviceId',
    userId: 'userId',
    portalId: 'portalId',
    listingId: 'listingId',
    inviteId: 'inviteId',
    commandId: 'commandId',
    status: 'status',
    year: 'year',
    month: 'month',
    size: 'size',
    // Rentals (issue 12): a listing's requests, access list, feeds and reviews.
    reqId: 'stayId',
    entryId: 'accessListId',
    feedId: 'feedId',
    reviewId: 'reviewId',
    // A webhook endpoint's delivery (features/webhooks: replay).
    webhookDeliveryId: 'webhookDeliveryId',
    token: 'unknown',
    feed: 'unknown',
    email: 'unknown',
    activation: 'unknown',
    // A content page's topic (features/content): the deployment's, no portal's.
    topic: 'unknown',
    '*': 'unknown',
  };
  const kind = byName[name];
  if (!kind) throw new Error(`fixtures: no values for path parameter :${name} of ${route.url}`);
  return kind;
}

/** The route's path parameters and what each names. */
export function pathParams(route: RegisteredRoute) {
  return [...route.url.matchAll(/:(\w+)|\*/g)].map((match) => {
    const name = match[1] ?? '*';
    return { name, kind: paramKind(route, name) };
  });
}

/**
 * The URL with ids from portal A (`own`), portal B (`foreign`), or ids no portal has (`unknown`).
 */
export function fillUrl(route: RegisteredRoute, side: 'own' | 'foreign' | 'unknown', portals: TwoPortals) {
  return route.url.replace(/:(\w+)|\*/g, (_, param: string | undefined) => {
    const kind = paramKind(route, param ?? '*');
    if (kind === 'unknown') return UNKNOWN_VALUE;
    if (kind === 'status') return 'suspended';
    if (kind === 'commandId') return UNKNOWN_COMMAND_ID;
    if (kind === 'size') return 'thumb';
    if (kind === 'productId') return side === 'unknown' ? 'no-such-product' : 'smart-lock';
    // This month (its running bill); otherwise a month before any portal existed (404).
    if (kind === 'year') return side === 'own' ? String(new Date().getUTCFullYear()) : '2000';
    if (kind === 'month') return side === 'own' ? String(new Date().getUTCMonth() + 1) : '1';
    if (side === 'unknown') return crypto.randomUUID();
    return recordOf(side === 'own' ? portals.a : portals.b, kind);
  });
}

/**
 * The route's example body (declared with the route: config.example) with its `{deviceId}`-style
 * ids filled in from one side, so ids in a body come from the same side as the ids in the path.
 */
export function exampleBody(route: RegisteredRoute, tenant: Tenant): unknown {
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const name = /^\{(\w+)\}$/.exec(value)?.[1];
      if (!name) return value;
      if (!(name in tenant)) throw new Error(`fixtures: no id {${name}} for ${route.method} ${route.url}`);
      return recordOf(tenant, name as keyof Tenant);
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fill(inner)]));
    return value;
  };
  return route.example && fill(route.example.body);
}

/** A record's id, or a failure naming it when the fixtures were made without it. */
function recordOf(tenant: Tenant, kind: keyof Tenant): string {
  const id = tenant[kind];
  if (id === undefined) throw new Error(`fixtures: no ${kind} (made without rentals)`);
  return id;
}

/** Whether a route names a support record in its path. */
export function namesSupport(route: RegisteredRoute): boolean {
  const kinds: readonly string[] = SUPPORT_IDS;
  return pathParams(route).some(({ kind }) => kinds.includes(kind));
}

/** Whether a route names a rental record, in its path or its example. */
export function namesRentals(route: RegisteredRoute): boolean {
  const kinds: readonly string[] = RENTAL_IDS;
  const inExample = JSON.stringify(route.example ?? null);
  return (
    pathParams(route).some(({ kind }) => kinds.includes(kind)) ||
    RENTAL_IDS.some((kind) => inExample.includes(`{${kind}}`))
  );
}

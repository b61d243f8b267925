import crypto from 'node:crypto';
import { SimulatedLock } from '@latchkey/locksim';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdKind, RegisteredRoute } from '../src/base/http/access';
import { seedCatalogue } from '../src/features/shop/catalogue';
import { TestApp } from './test-app';
import { waitFor } from './net-helpers';

/**
 * Driven by the served OpenAPI document: every operation is called as a signed-in admin of a
 * portal with data (a lock that reported events, people, credentials, a guest, a command), first
 * with a valid request, then with hostile values (NUL, lone surrogates, the year 0000, huge and
 * hex numbers, overlong strings, wrong types) in one path parameter, query parameter or body
 * field at a time. Fails on any 5xx and on any answer whose status or body the document does not
 * describe. Fixed seed and count: the same requests every run, on SQLite and PostgreSQL. Besides
 * the random ones, every string field of every operation (path, query, anywhere in a body) is
 * tried once with NUL and once with a lone surrogate inside its valid value: a 4xx, never taken.
 */

const SEED = 20_261_125;
/** Hostile requests per operation, besides its valid one. */
const HOSTILE_PER_OPERATION = 10;
const PASSWORD = 'a sturdy passphrase';

/**
 * Not called: it revokes every session of the person (the token version), so every call after
 * it would be a 401. Its 401/204 shapes are covered by auth.test.ts and specs/auth.spec.test.ts.
 */
const SKIPPED = new Set(['POST /api3/auth/logout']);

type JsonSchema = { [keyword: string]: unknown };
interface Operation {
  method: string;
  /** As the document writes it: /api3/portal/device/{id}. */
  path: string;
  pathParams: string[];
  query: { name: string; required: boolean; schema: JsonSchema }[];
  body: JsonSchema | null;
  route: RegisteredRoute;
  responses: Record<string, JsonSchema | null>;
}

interface Fixtures {
  admin: string;
  adminEmail: string;
  adminId: string;
  staff: string;
  portalId: string;
  userId: string;
  deviceId: string;
  groupId: string;
  lockoutId: string;
  rfidId: string;
  rfidUid: string;
  companyCodeId: string;
  fingerprintId: string;
  keyId: string;
  inviteId: string;
  alertRuleId: string;
  reportScheduleId: string;
  zoneId: string;
  /** Integrations (issue 21): a webhook endpoint and its test delivery, an API key, a paired desk
   * reader and an enrollment on it, a basic user's access request. */
  webhookEndpointId: string;
  webhookDeliveryId: string;
  apiKeyId: string;
  readerId: string;
  enrollmentId: string;
  accessRequestId: string;
  commandId: string;
  listingId: string;
  stayId: string;
  categoryId: string;
  accessListId: string;
  listingImageId: string;
  landingImageId: string;
  shareToken: string;
  stayToken: string;
  feedId: string;
  /** The listing's export feed file name, `{token}.ics`. */
  exportFeed: string;
  reviewId: string;
  calendarBlockId: string;
}

let t: TestApp;
let fx: Fixtures;
let lock: SimulatedLock;
let document: { paths: Record<string, Record<string, Record<string, unknown>>> };
let operations: Operation[];

const inviteBody = () => ({
  name: 'Guest',
  email: 'guest@example.com',
  days: [1, 2],
  start: '09:00',
  end: '17:00',
  startDate: '2030-01-01',
  endDate: '2030-01-31',
});

/** A portal with data in every table a route reads, made through the API and a simulated lock. */
async function makeFixtures(): Promise<Fixtures> {
  const owner = await t.signUp({ email: `fuzz-admin-${crypto.randomUUID().slice(0, 8)}@example.com` });
  const member = await t.signUp();
  await t.addMember(owner.portalId, member.userId, 'user');
  const post = async (url: string, payload: object, method: 'POST' | 'PUT' = 'POST') => {
    const response = await t.request({ method, url, token: owner.token, payload });
    if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.body ? response.json() : null;
  };
  const created = await post('/api3/portal/device/new', {
    name: 'Front door',
    model: 'latchkey-sim',
    timeZone: 'Europe/Berlin',
  });
  const deviceId: string = created.device._id;
  // Asked before the person is given the lock: one may ask only for a lock one cannot open yet.
  const accessRequest = await t.request({
    method: 'POST',
    url: '/api3/portal/accessRequest',
    token: member.token,
    // The person's own portal is theirs by sign-up: the request is for the fixture portal's lock.
    headers: { 'x-portal-override': owner.portalId },
    payload: { deviceId, note: 'Weekends too, please' },
  });
  if (accessRequest.statusCode !== 201) throw new Error(`fuzz access request: ${accessRequest.body}`);
  await post(`/api3/user/${member.userId}/device/${deviceId}`, {}, 'PUT');
  await post('/api3/user/accessCode', { userId: member.userId, code: '246810' });
  const rfidUid = crypto.randomBytes(4).toString('hex').toUpperCase();
  const group = await post('/api3/portal/group', { name: 'Staff', description: 'Day shift' });
  const card = await post('/api3/portal/rfid', { uid: rfidUid, userId: member.userId });
  const lockout = await post('/api3/portal/lockout', {
    name: 'Maintenance',
    from: '2030-01-01T00:00:00Z',
    deviceIds: [deviceId],
  });
  const companyCode = await post('/api3/portal/code/company', { name: 'Cleaning', code: '13572468' });
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
  const alertRule = await post('/api3/portal/alerts/rules', { kind: 'tamper', name: 'Forced' });
  const reportSchedule = await post('/api3/portal/report/schedules', { kind: 'health', frequency: 'weekly' });
  const zone = await post('/api3/portal/zone', { name: 'Main building', timeZone: 'UTC' });
  await post(`/api3/zone/${zone._id}/devices`, { add: [deviceId] });
  const webhookEndpoint = await post('/api3/portal/webhooks', {
    url: 'https://receiver.example.invalid/hooks',
    eventTypes: ['webhook.test'],
  });
  const webhookDelivery = await post(`/api3/portal/webhooks/${webhookEndpoint._id}/test`, {});
  const apiKey = await post('/api3/portal/apikeys', { name: 'Fuzz', scopes: ['devices:read'] });
  const reader = await post('/api3/portal/reader', { name: 'Front desk', kind: 'both' });
  // The reader says it is online as the broker would hand it over; enrollments need it online.
  await t.app.readers.handle({
    readerId: reader.reader._id,
    topic: 'status',
    payload: Buffer.from(JSON.stringify({ online: true, firmware: 'fuzz', ts: new Date().toISOString() })),
  });
  const enrollment = await post(`/api3/portal/reader/${reader.reader._id}/enroll`, {
    kind: 'rfid',
    userId: member.userId,
  });
  // Rentals (issue 12): a published listing of the lock with a category, an access list, images,
  // an approved stay and both kinds of share link.
  const category = await post('/api3/listingCategory/new', { name: 'Flats' });
  const listing = await post('/api3/listing/new', {
    title: 'Fuzz flat',
    deviceIds: [deviceId],
    categoryId: category._id,
    published: true,
  });
  const accessEntry = await post(`/api3/listing/${listing._id}/accessList/new`, { name: 'Cleaner' });
  const image = async (url: string) => {
    const response = await t.request({
      method: 'POST',
      url,
      token: owner.token,
      payload: await sharp({ create: { width: 8, height: 8, channels: 3, background: '#369' } })
        .png()
        .toBuffer(),
      headers: { 'content-type': 'image/png' },
    });
    if (response.statusCode !== 201) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json()._id as string;
  };
  const listingImageId = await image(`/api3/listing/${listing._id}/image`);
  const landingImageId = await image(`/api3/device/${deviceId}/sharelock/landing/image`);
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const stay = await t.request({
    method: 'POST',
    url: `/api3/device/${listing._id}/request`,
    payload: { name: 'Guest', email: 'stay-guest@example.com', startDate: inDays(20), endDate: inDays(23) },
  });
  const approved = await post(`/api3/device/${listing._id}/request/${stay.json()._id}`, {
    action: 'approve',
  });
  const share = (
    await t.request({ method: 'GET', url: `/api3/device/${listing._id}/sharelock/token`, token: owner.token })
  ).json();
  // Calendars (R2): an imported feed (unreachable: its reads fail as documented) and the export feed.
  const feed = await post(`/api3/listing/${listing._id}/ical/feed/new`, {
    name: 'Airbnb',
    url: 'https://calendar.example.invalid/fuzz.ics',
  });
  const ical = (
    await t.request({ method: 'GET', url: `/api3/listing/${listing._id}/ical`, token: owner.token })
  ).json();
  // A stay that is over, reviewed by its guest.
  const past = await t.request({
    method: 'POST',
    url: `/api3/device/${listing._id}/request`,
    payload: {
      name: 'Past Guest',
      email: 'past-guest@example.com',
      startDate: inDays(40),
      endDate: inDays(42),
    },
  });
  await post(`/api3/device/${listing._id}/request/${past.json()._id}`, { action: 'approve' });
  await t.app.db
    .updateTable('stays')
    .set({ start_date: inDays(-3), end_date: inDays(-1) })
    .where('id', '=', past.json()._id)
    .execute();
  const review = await t.request({
    method: 'POST',
    url: `/api3/review/${t.app.rental.deps.tokens.sign('review', past.json()._id, 1)}`,
    payload: { rating: 4, text: 'Quiet and clean' },
  });
  if (review.statusCode !== 201) throw new Error(`review: ${review.body}`);
  const block = await post(`/api3/device/${listing._id}/calendar`, {
    action: 'block',
    // Nights no test asks for (the stays' spec requests +60 days).
    startDate: inDays(500),
    endDate: inDays(502),
    note: 'Painting',
  });
  const reviewId = (
    await t.app.db
      .selectFrom('reviews')
      .select('id')
      .where('stay_id', '=', past.json()._id)
      .executeTakeFirstOrThrow()
  ).id;

  // The lock connects, takes its set and reports: an opening (no reason), a refusal (a reason),
  // a door closing (no method) and a tamper alarm (an alert): null and non-null enums alike.
  lock = new SimulatedLock({
    url: t.app.deviceLink.transport.url,
    deviceId,
    secret: created.deviceSecret,
    heartbeatSeconds: 0,
  });
  await lock.start();
  await t.app.deviceLink.flushScheduledSyncs();
  await waitFor(() => lock.credentialSet?.entries.some((entry) => entry.secret === '246810'), 'the set');
  lock.enterCode('246810');
  lock.enterCode('999999');
  lock.doorClosed();
  lock.tamper();
  await waitFor(() => lock.pendingEvents().length === 0, 'the events acknowledged');
  const command = await post(`/api3/device/${deviceId}/command`, { action: 'unlock' });
  await waitFor(async () => {
    const answer = await t.request({
      method: 'GET',
      url: `/api3/device/${deviceId}/command/${command.commandId}`,
      token: owner.token,
    });
    return answer.json().status !== 'pending';
  }, 'the command answered');
  // Offline from here on: the lock is deleted at the end, and a lock whose login is refused
  // keeps trying and never finishes leaving.
  await lock.stop();

  await seedCatalogue(t.app.db); // the shop's catalogue, for its routes
  const staff = await t.createSuperAdmin();
  return {
    admin: owner.token,
    adminEmail: owner.email,
    adminId: owner.userId,
    staff: staff.token,
    portalId: owner.portalId,
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
    zoneId: zone._id,
    webhookEndpointId: webhookEndpoint._id,
    webhookDeliveryId: webhookDelivery._id,
    apiKeyId: apiKey.key._id,
    readerId: reader.reader._id,
    enrollmentId: enrollment._id,
    accessRequestId: accessRequest.json()._id,
    commandId: command.commandId,
    listingId: listing._id,
    stayId: stay.json()._id,
    categoryId: category._id,
    accessListId: accessEntry._id,
    listingImageId,
    landingImageId,
    shareToken: share.token,
    stayToken: decodeURIComponent((approved.landingPath as string).slice('/s?t='.length)),
    feedId: feed._id,
    exportFeed: new URL(ical.exportUrl as string).pathname.split('/').pop()!,
    reviewId,
    calendarBlockId: (block as { block: { _id: string } }).block._id,
  };
}

/**
 * A valid body for routes whose schema alone does not make one (rules across fields, ids that
 * must exist, the right password). Others get one generated from the document.
 */
const EXAMPLE_BODIES: Record<string, () => unknown> = {
  // Webhook endpoints take https addresses only (features/webhooks).
  'POST /api3/portal/webhooks': () => ({ url: 'https://receiver.example.invalid/second', eventTypes: null }),
  // Zone names are unique among their siblings (features/zones): a fresh name each time.
  'POST /api3/zone/new': () => ({ name: `Zone ${crypto.randomUUID().slice(0, 8)}`, timeZone: 'UTC' }),
  'POST /api3/zone/{id}': () => ({ name: `Zone ${crypto.randomUUID().slice(0, 8)}`, timeZone: 'UTC' }),
  'PATCH /api3/portal/zone/{id}': () => ({ name: `Zone ${crypto.randomUUID().slice(0, 8)}` }),
  'POST /api3/portal/zone': () => ({ name: `Zone ${crypto.randomUUID().slice(0, 8)}`, timeZone: 'UTC' }),
  'POST /api3/auth/create': () => ({ email: uniqueEmail(), password: PASSWORD, firstName: 'Fuzz' }),
  'POST /api3/auth/secure/login': () => ({ email: fx.adminEmail, password: PASSWORD }),
  // A wrong current password: the right one would end the session being fuzzed with.
  'POST /api3/auth/password': () => ({
    currentPassword: 'not the password',
    newPassword: 'another passphrase',
  }),
  'POST /api3/auth/passwordVerify': () => ({ password: PASSWORD }),
  'POST /api3/auth/email': () => ({ newEmail: uniqueEmail(), password: PASSWORD }),
  'POST /api3/user/{id}/session': () => ({ originUrl: '/admin/users' }),
  'POST /api3/portal/data': () => ({ name: 'Fuzzed portal', timeZone: 'Europe/Berlin' }),
  'POST /api3/portal/user/{id}': () => ({ firstName: 'Renamed' }),
  'POST /api3/portal/device/{id}': () => ({ name: 'Front door', timeZone: 'Europe/Berlin' }),
  'POST /api3/device/codelock/add': () => ({ name: 'Shed', code: String(crypto.randomInt(1000, 9999)) }),
  'POST /api3/portal/device/{id}/schedule/{userId}': () => ({
    schedule: { windows: [{ days: [1, 2, 3], start: '08:00', end: '18:00' }] },
  }),
  'POST /api3/user/accessCode': () => ({ userId: fx.userId, code: '246810' }),
  'POST /api3/portal/lockout': () => ({
    name: 'Holiday',
    from: '2031-01-01T00:00:00+01:00',
    until: '2031-01-02T00:00:00+01:00',
    deviceIds: [fx.deviceId],
  }),
  'POST /api3/portal/lockout/{id}': () => ({
    name: 'Maintenance',
    from: '2030-01-01T00:00:00Z',
    deviceIds: [fx.deviceId],
  }),
  'POST /api3/portal/alerts/rules': () => ({
    kind: 'offline',
    name: 'Gone',
    minutes: 30,
    deviceIds: [fx.deviceId],
  }),
  'POST /api3/portal/alerts/rules/{id}': () => ({ kind: 'tamper', name: 'Forced' }),
  'POST /api3/portal/rfid': () => ({ uid: crypto.randomBytes(7).toString('hex'), userId: fx.userId }),
  'POST /api3/portal/rfid/{id}': () => ({ uid: fx.rfidUid, userId: fx.userId, name: 'Blue card' }),
  'POST /api3/portal/code/company': () => ({
    name: 'Post',
    code: String(crypto.randomInt(10_000_000, 99_999_999)),
  }),
  'POST /api3/portal/fingerprint': () => ({
    deviceId: fx.deviceId,
    userId: fx.userId,
    templateId: String(crypto.randomInt(100, 999)),
    finger: 'left-thumb',
  }),
  'POST /api3/portal/keys': () => ({
    name: 'Spare',
    type: 'digital',
    userId: fx.userId,
    deviceIds: [fx.deviceId],
  }),
  'POST /api3/portal/keys/{id}': () => ({ name: 'Master key', number: 'K-1' }),
  'POST /api3/device/{id}/invite': inviteBody,
  'POST /api3/device/{id}/invite/{inviteId}': inviteBody,
  'POST /api3/device/{id}/command': () => ({ action: 'lock' }),
  'POST /api3/user/inviteResponse': () => ({ token: 'x'.repeat(43), accept: false }),
  'POST /api3/shop/quote': () => ({ items: [{ productId: 'smart-lock', quantity: 1 }], country: 'DE' }),
  'POST /api3/stripe/order': () => ({
    items: [{ productId: 'rfid-cards-10', quantity: 1 }],
    email: uniqueEmail(),
    address: { name: 'Fuzz', line1: 'Street 1', postalCode: '10115', city: 'Berlin', country: 'DE' },
    shippingOption: 'standard',
  }),
  'POST /api3/system/inventory/{id}': () => ({ onHand: 40, reason: 'Count' }),
  'POST /api3/device/{listingId}/request': () => ({
    name: 'Fuzz',
    email: uniqueEmail(),
    startDate: new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10),
    endDate: new Date(Date.now() + 62 * 86_400_000).toISOString().slice(0, 10),
  }),
  // The fixture's stay, kept as it is (a change that changes nothing still answers the stay).
  'POST /api3/device/{id}/request/{reqId}': () => ({
    action: 'change',
    startDate: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10),
    endDate: new Date(Date.now() + 23 * 86_400_000).toISOString().slice(0, 10),
  }),
  'POST /api3/device/{id}/sharelock': () => ({ enabled: true }),
  'POST /api3/listing/{id}/image/{imageId}': () => ({ alt: 'Living room' }),
  'POST /api3/device/{id}/sharelock/landing/image/{imageId}': () => ({ alt: 'Front door' }),
  'POST /api3/listingCategory/{id}': () => ({ name: 'Whole flats' }),
  'POST /api3/device/{activation}/sharelock/add': () => ({ password: PASSWORD }),
  // Content (issue 20, item 6): a screen address to show (changes nothing), the first version.
  'PUT /api3/content/nav': () => ({ to: '/app/fuzz', hidden: false }),
  'POST /api3/content/pages/{topic}/restore': () => ({ version: 1 }),
  // A feed's address must be one (its spiked form, issue 16 defect 9, is still a URL).
  'POST /api3/listing/{id}/ical/feed/new': () => ({
    name: 'Vrbo',
    url: 'https://calendar.example.invalid/fuzz-2.ics',
  }),
  'POST /api3/listing/{id}/ical/feed/{feedId}': () => ({
    name: 'Airbnb',
    url: 'https://calendar.example.invalid/fuzz.ics',
  }),
  // A link token nobody mailed: a documented 400 (the real flow is in account-takeover.test.ts).
  'POST /api3/sharelock/account': () => ({ token: 'x'.repeat(43), password: PASSWORD }),
};

let emails = 0;
const uniqueEmail = () => `fuzz-${SEED}-${++emails}-${crypto.randomUUID().slice(0, 6)}@example.com`;

/** What a path parameter names: `{id}` as its route declares, the others by their name. */
function pathValue(operation: Operation, name: string): string {
  const byName: Record<string, string | undefined> = {
    email: fx.adminEmail,
    status: 'active',
    userId: fx.userId,
    deviceId: fx.deviceId,
    inviteId: fx.inviteId,
    commandId: fx.commandId,
    year: String(new Date().getUTCFullYear()),
    month: String(new Date().getUTCMonth() + 1),
    listingId: fx.listingId,
    reqId: fx.stayId,
    entryId: fx.accessListId,
    portalId: fx.portalId,
    size: 'thumb',
    token: fx.shareToken,
    activation: fx.stayToken,
    feedId: fx.feedId,
    feed: fx.exportFeed,
    reviewId: fx.reviewId,
    webhookDeliveryId: fx.webhookDeliveryId,
    // A content page's topic (features/content): the deployment's default privacy notice.
    topic: 'privacy',
  };
  if (byName[name]) return byName[name];
  // `:id` and `:imageId` say what they name with the route (config.ids, which the server requires).
  const declared = operation.route.ids[name as keyof RegisteredRoute['ids']];
  if (!declared) throw new Error(`fuzz test: no value for {${name}} of ${operation.path}`);
  return idOfKind(declared);
}

/** A record of the fixtures for each kind of id a route may name (config.ids, example bodies). */
function idOfKind(kind: IdKind): string {
  const byKind: Record<IdKind, string> = {
    portalId: fx.portalId,
    userId: fx.userId,
    deviceId: fx.deviceId,
    groupId: fx.groupId,
    lockoutId: fx.lockoutId,
    rfidId: fx.rfidId,
    companyCodeId: fx.companyCodeId,
    fingerprintId: fx.fingerprintId,
    keyId: fx.keyId,
    alertRuleId: fx.alertRuleId,
    reportScheduleId: fx.reportScheduleId,
    apiKeyId: fx.apiKeyId,
    zoneId: fx.zoneId,
    listingId: fx.listingId,
    categoryId: fx.categoryId,
    listingImageId: fx.listingImageId,
    reviewId: fx.reviewId,
    calendarBlockId: fx.calendarBlockId,
    landingImageId: fx.landingImageId,
    // No bill or checkout of the fixtures: an id that names none (their 404s are documented).
    billId: fx.portalId,
    checkoutId: fx.portalId,
    // No support request in the fuzz fixtures either (its 404 is documented).
    supportRequestId: fx.portalId,
    supportImageId: fx.portalId,
    webhookEndpointId: fx.webhookEndpointId,
    webhookDeliveryId: fx.webhookDeliveryId,
    readerId: fx.readerId,
    enrollmentId: fx.enrollmentId,
    // No client error report in the fuzz fixtures (issue 21): an id that names none (404).
    clientErrorId: fx.portalId,
    accessRequestId: fx.accessRequestId,
    // The shop's products, seeded in makeFixtures.
    productId: 'smart-lock',
    inviteId: fx.inviteId,
  };
  return byKind[kind];
}

/**
 * The route's declared example body (config.example, what the registry-driven specs send), its
 * `{deviceId}`-style placeholders filled from the fixtures: a valid request for the routes the
 * hand-written EXAMPLE_BODIES do not cover (the collections' saves and remote calls).
 */
function declaredExample(operation: Operation): unknown {
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const name = /^\{(\w+)\}$/.exec(value)?.[1];
      return name ? idOfKind(name as IdKind) : value;
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fill(inner)]));
    return value;
  };
  return fill(operation.route.example?.body);
}

/** Ids in bodies and queries are real ones of the portal; emails and zones need a valid form. */
function idFor(name: string): unknown {
  const ids: Record<string, unknown> = {
    userId: fx.userId,
    deviceId: fx.deviceId,
    deviceIds: [fx.deviceId],
    groupIds: [fx.groupId],
  };
  if (name === 'email' || name === 'newEmail') return uniqueEmail();
  if (name === 'timeZone') return 'Europe/Berlin';
  return ids[name];
}

/** A plausible valid value for a schema of the document. */
function exampleFor(schema: JsonSchema | undefined, name = ''): unknown {
  if (!schema) return undefined;
  const id = idFor(name);
  if (id !== undefined) return id;
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null) ?? null;
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (union?.[0]) return exampleFor(union[0], name);
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((key) => [key, exampleFor(properties[key], key)]));
    }
    case 'array':
      return Number(schema.minItems ?? 0) > 0 ? [exampleFor(schema.items as JsonSchema)] : [];
    case 'string':
      if (schema.format === 'email') return uniqueEmail();
      if (schema.format === 'date-time') return '2030-06-01T09:00:00Z';
      if (schema.format === 'date') return '2030-06-01';
      return 'Fuzz';
    case 'integer':
    case 'number':
      return Math.max(Number(schema.minimum ?? 1), Math.min(Number(schema.maximum ?? 10), 10));
    case 'boolean':
      return false;
    default:
      return 'Fuzz';
  }
}

const HOSTILE_STRINGS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
  '0000-01-01T00:00:00Z',
  '0000-01-01',
  '1899-12-31T23:59:59Z',
  '9999-12-31T23:59:59-05:00',
  '+275760-09-13T00:00:00.000Z',
  '2030-02-30T00:00:00Z',
  'x'.repeat(10_000),
  '0x10',
  '1e3',
  ' 16 ',
  '-1',
  '99999999999999999999',
  '',
  '   ',
  'line\nbreak',
  '\u202eevil',
  "' OR '1'='1",
  '%_\\',
  'NaN',
  'utc',
  'Europe/berlin',
  'Mars/Olympus_Mons',
];
const HOSTILE_OTHERS: unknown[] = [
  1e308,
  -1e308,
  2 ** 53,
  -(2 ** 53),
  -1,
  0,
  1.5,
  true,
  null,
  [],
  {},
  ['\u0000'],
  { $gt: '' },
];
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_OTHERS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double()) },
);

/** One step down a body to a field: an object key or array index, and the schema of the value there. */
interface Step {
  key: string | number;
  schema: JsonSchema;
  /** Inside a union: the branch this field belongs to (the value here is made to fit it first). */
  branch?: JsonSchema;
}
type Target =
  | { in: 'path' | 'query'; name: string }
  | { in: 'body'; name: string | null; element: boolean; steps?: Step[] };

function targetsOf(operation: Operation): Target[] {
  const targets: Target[] = [
    ...operation.pathParams.map((name) => ({ in: 'path' as const, name })),
    ...operation.query.map(({ name }) => ({ in: 'query' as const, name })),
  ];
  if (operation.body) {
    targets.push({ in: 'body', name: null, element: false });
    const branches = [operation.body, ...((operation.body.anyOf ?? []) as JsonSchema[])];
    for (const branch of branches) {
      for (const [name, schema] of Object.entries((branch.properties ?? {}) as Record<string, JsonSchema>)) {
        targets.push({ in: 'body', name, element: false });
        if (schema.type === 'array') targets.push({ in: 'body', name, element: true });
      }
    }
  }
  return targets;
}

/** The characters every string field is tried with, once each (issue 16, defect 9). */
const NUL_AND_SURROGATE = ['\u0000', '\ud800'];

/** A valid value with `character` before its last character ('a…b' around it when there is none). */
const spiked = (valid: unknown, character: string) =>
  typeof valid === 'string' && valid.length > 0
    ? `${valid.slice(0, -1)}${character}${valid.slice(-1)}`
    : `a${character}b`;

/**
 * The value a string field is tried with: its valid value with the character inside, so that the
 * character is the one thing wrong with it (a feed URL stays a URL). For a body field, a function
 * of the value the valid body holds there (withValueAt calls it).
 */
function spikedValueFor(operation: Operation, target: Target, character: string): unknown {
  if (target.in === 'path') return spiked(pathValue(operation, target.name), character);
  if (target.in === 'query') {
    const parameter = operation.query.find((candidate) => candidate.name === target.name);
    return spiked(asText(exampleFor(parameter?.schema, target.name)), character);
  }
  return (valid: unknown) => spiked(valid, character);
}

/** The steps to every string field of a body schema: nested objects, arrays, union branches, records. */
function stringFieldsOf(schema: JsonSchema, steps: Step[] = [], out = new Map<string, Step[]>()) {
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (union) {
    for (const branch of union) {
      const last = steps.at(-1);
      // A branch of the body itself, or of a value: fields are reached through the branch.
      const into = last ? [...steps.slice(0, -1), { ...last, branch }] : [{ key: '', schema, branch }];
      stringFieldsOf(branch, into, out);
    }
  }
  const where = steps
    .map((step) => step.key)
    .filter((key) => key !== '')
    .join('.');
  const onlyNull = Array.isArray(schema.enum) && schema.enum.every((value) => value === null);
  if (schema.type === 'string' && !onlyNull && !out.has(where)) out.set(where, steps);
  if (schema.type === 'object' || schema.properties) {
    for (const [key, child] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      stringFieldsOf(child, [...steps, { key, schema: child }], out);
    }
    const extra = schema.additionalProperties;
    if (extra && typeof extra === 'object') {
      stringFieldsOf(extra as JsonSchema, [...steps, { key: 'fuzz', schema: extra as JsonSchema }], out);
    }
  }
  if (schema.type === 'array' && schema.items && typeof schema.items === 'object') {
    const items = schema.items as JsonSchema;
    stringFieldsOf(items, [...steps, { key: 0, schema: items }], out);
  }
  return out;
}

/**
 * Every string field of an operation (each path and query parameter: all arrive as text; each
 * string anywhere in the body), as targets for buildRequest.
 */
function everyStringField(operation: Operation): Target[] {
  const targets: Target[] = [
    ...operation.pathParams.map((name) => ({ in: 'path' as const, name })),
    ...operation.query.map(({ name }) => ({ in: 'query' as const, name })),
  ];
  if (operation.body) {
    for (const steps of stringFieldsOf(operation.body).values()) {
      targets.push({ in: 'body', name: null, element: false, steps });
    }
  }
  return targets;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `body` with `value` at the end of `steps`; what is missing on the way is made from the document. */
function withValueAt(body: unknown, steps: Step[], value: unknown): unknown {
  const [step, ...rest] = steps;
  if (!step) return typeof value === 'function' ? (value as (valid: unknown) => unknown)(body) : value;
  let here = body;
  // A union's branch: keep the value if it fits the branch, else start from the branch's example.
  if (step.branch && !validatorFor(step.branch)(here)) here = exampleFor(step.branch);
  if (step.key === '') return withValueAt(here, rest, value);
  if (typeof step.key === 'number') {
    const array = Array.isArray(here) ? [...(here as unknown[])] : [];
    const current = array[step.key] ?? exampleFor(step.schema);
    array[step.key] = withValueAt(current, rest, value);
    return array;
  }
  const object = isPlainObject(here) ? { ...here } : {};
  const current = object[step.key] ?? exampleFor(step.schema, step.key);
  object[step.key] = withValueAt(current, rest, value);
  return object;
}

/** Percent-encodes text as UTF-8, and a lone surrogate as the bytes a careless client would send. */
function looseEncode(value: string): string {
  let out = '';
  for (const character of value) {
    const code = character.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(character);
  }
  return out;
}

const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

/** One request: the operation's valid request with at most one value replaced. */
function buildRequest(
  operation: Operation,
  mutation?: { target: Target; value: unknown },
): InjectOptions & {
  token?: string;
} {
  const pathValues = Object.fromEntries(
    operation.pathParams.map((name) => [name, pathValue(operation, name)]),
  );
  const query: [string, string][] = operation.query
    .filter((parameter) => parameter.required)
    .map((parameter) => [parameter.name, asText(exampleFor(parameter.schema, parameter.name))]);
  const example = EXAMPLE_BODIES[`${operation.method} ${operation.path}`];
  let body: unknown = operation.body
    ? example
      ? example()
      : operation.route.example
        ? declaredExample(operation)
        : exampleFor(operation.body)
    : undefined;

  const target = mutation?.target;
  if (target?.in === 'path') pathValues[target.name] = asText(mutation?.value);
  if (target?.in === 'query') {
    // The hostile value alone, not beside the valid one (which would make it a list).
    for (let index = query.length - 1; index >= 0; index--) {
      if (query[index]?.[0] === target.name) query.splice(index, 1);
    }
    const values = Array.isArray(mutation?.value) ? mutation.value : [mutation?.value];
    for (const value of values.length > 0 ? values : ['']) query.push([target.name, asText(value)]);
  }
  if (target?.in === 'body') {
    if (target.steps) body = withValueAt(body, target.steps, mutation?.value);
    else if (target.name === null) body = mutation?.value;
    else {
      const object = body !== null && typeof body === 'object' && !Array.isArray(body) ? { ...body } : {};
      (object as Record<string, unknown>)[target.name] = target.element ? [mutation?.value] : mutation?.value;
      body = object;
    }
  }

  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => looseEncode(pathValues[name] ?? ''));
  const search = query.map(([name, value]) => `${name}=${looseEncode(value)}`).join('&');
  const { access, sealed } = operation.route;
  const token = access.kind === 'public' ? undefined : access.kind === 'platform' ? fx.staff : fx.admin;
  const request: InjectOptions & { token?: string } = {
    method: operation.method as InjectOptions['method'],
    url: search ? `${path}?${search}` : path,
    token,
  };
  if (body !== undefined) {
    // A sealed route gets its body sealed, except a whole-body replacement: that tests the envelope.
    const sealIt = sealed && !(target?.in === 'body' && target.name === null && !target.steps);
    request.payload = JSON.stringify(sealIt ? t.seal(body) : body);
    request.headers = { 'content-type': 'application/json' };
  }
  return request;
}

/** The operations of the served document, each with its route and response schemas. */
function operationsOf(routes: RegisteredRoute[]): Operation[] {
  const found: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const upper = method.toUpperCase();
      if (SKIPPED.has(`${upper} ${path}`)) continue;
      const url = path.replace(/\{(\w+)\}/g, ':$1');
      const route = routes.find((r) => r.method === upper && r.url === url);
      if (!route) throw new Error(`fuzz test: ${upper} ${path} is documented but not registered`);
      const parameters = (operation.parameters ?? []) as {
        in: string;
        name: string;
        required?: boolean;
        schema: JsonSchema;
      }[];
      const content = (
        operation.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined
      )?.content;
      const responses: Record<string, JsonSchema | null> = {};
      for (const [status, response] of Object.entries(
        operation.responses as Record<string, { content?: Record<string, { schema: JsonSchema }> }>,
      )) {
        responses[status] = Object.values(response.content ?? {})[0]?.schema ?? null;
      }
      found.push({
        method: upper,
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: p.required === true, schema: p.schema })),
        body: content?.['application/json']?.schema ?? null,
        route,
        responses,
      });
    }
  }
  // Deletions last, so the records the other calls name still exist when they are called: links
  // first, then records, the lock and the person (which end what only worked there) at the end.
  const rank = (operation: Operation) =>
    operation.method !== 'DELETE'
      ? 0
      : operation.path === '/api3/portal/device/{id}' || operation.path === '/api3/portal/user/{id}'
        ? 3
        : operation.pathParams.length > 1
          ? 1
          : 2;
  return found.sort((x, y) => rank(x) - rank(y));
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validators = new Map<JsonSchema, ValidateFunction>();
function validatorFor(schema: JsonSchema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/** Why an answer breaks the document, or null when it keeps to it. */
function breach(operation: Operation, status: number, contentType: string, body: string): string | null {
  if (status >= 500) return `answered ${status}: ${body.slice(0, 300)}`;
  const documented =
    operation.responses[String(status)] !== undefined ||
    operation.responses[`${String(status)[0]}XX`] !== undefined;
  if (!documented) return `answered ${status}, which the document does not list`;
  const schema = operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`];
  if (!schema) return null;
  let value: unknown = body;
  if (body === '') value = null;
  else if (contentType.includes('json')) value = JSON.parse(body);
  const validate = validatorFor(schema);
  if (validate(value)) return null;
  return `answered ${status} with a body the document does not describe: ${ajv.errorsText(validate.errors)}; ${body.slice(0, 300)}`;
}

beforeAll(async () => {
  t = await TestApp.start({
    LOGIN_LIMIT_PER_IP: '100000',
    LOGIN_LIMIT_PER_EMAIL: '100000',
    SIGNUP_LIMIT_PER_IP: '100000',
    MAIL_LIMIT_PER_RECIPIENT: '100000',
    MAIL_LIMIT_PER_SENDER: '100000',
    MAIL_LIMIT_PER_PORTAL: '100000',
  });
  fx = await makeFixtures();
  document = (await t.request({ method: 'GET', url: '/api3/openapi.json' })).json();
  operations = operationsOf(t.app.routeRegistry);
}, 120_000);
afterAll(async () => {
  await lock?.stop();
  // Dropping the PostgreSQL test database waits for a checkpoint of everything written here.
  await t?.close();
}, 180_000);

describe('poison input (issue 10 defect 6): a 400 on both databases, where PostgreSQL answered 500', () => {
  const as = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.request({ method, url, token: fx.admin, ...(payload && { payload }) });
  const expectRefused = (response: { statusCode: number; json: () => unknown }, path: string) => {
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { code: 'bad_request', details: expect.arrayContaining([expect.objectContaining({ path })]) },
    });
  };

  it('refuses NUL, other control characters and lone surrogates in text', async () => {
    expectRefused(await as('POST', '/api3/portal/group', { name: 'a\u0000b' }), 'body.name');
    expectRefused(
      await as('POST', '/api3/portal/group', { name: 'Staff', description: 'x\u0000' }),
      'body.description',
    );
    expectRefused(await as('POST', '/api3/portal/group', { name: 'bell\u0007' }), 'body.name');
    expectRefused(
      await as('POST', '/api3/auth/profile', { firstName: '\ud800', lastName: '' }),
      'body.firstName',
    );
    expectRefused(
      await as('POST', '/api3/portal/device/new', {
        name: 'Door',
        model: 'latchkey-sim',
        timeZone: 'UTC\u0000',
      }),
      'body.timeZone',
    );
    // C1 controls, line separators and text-direction overrides, which read as empty boxes or turn
    // a name around; a name of zero-width characters only is an empty one.
    for (const name of ['A\u0085B', 'A\u2028B', 'A\u202eB']) {
      expectRefused(await as('POST', '/api3/portal/group', { name }), 'body.name');
    }
    expectRefused(
      await as('POST', '/api3/portal/group', { name: 'Staff', description: 'x\u202ey' }),
      'body.description',
    );
    expectRefused(await as('POST', '/api3/portal/group', { name: '\u200b' }), 'body.name');
    const trimmed = await as('POST', '/api3/portal/group', { name: ' Day\u200b ' });
    expect(trimmed.statusCode).toBe(201);
    expect(trimmed.json().name).toBe('Day');
    // Multi-line text keeps its line breaks.
    const group = await as('POST', '/api3/portal/group', { name: 'Night', description: 'first\nsecond' });
    expect(group.statusCode).toBe(201);
    expect(group.json().description).toBe('first\nsecond');
  });

  it('refuses NUL in searches, filters and ids', async () => {
    expectRefused(await as('GET', '/api3/portal/devices?search=%00'), 'querystring.search');
    expectRefused(
      await as('GET', '/api3/portal/devices?filterBy=model&filterValue=a%00'),
      'querystring.filterValue',
    );
    expectRefused(await as('GET', '/api3/portal/scopedUsers?search=%00'), 'querystring.search');
    expectRefused(await as('GET', '/api3/portal/device/%00'), 'params.id');
    expectRefused(await as('GET', `/api3/portal/device/${fx.deviceId}/schedule/a%00b`), 'params.userId');
    expectRefused(
      await as('POST', '/api3/portal/lockout', {
        name: 'L',
        from: '2030-01-01T00:00:00Z',
        deviceIds: ['\u0000'],
      }),
      'body.deviceIds.0',
    );
  });

  it('refuses the year 0000 and years past 9999 in dates and instants', async () => {
    expectRefused(
      await as('POST', '/api3/portal/lockout', {
        name: 'L',
        from: '0000-01-01T00:00:00Z',
        deviceIds: [fx.deviceId],
      }),
      'body.from',
    );
    expectRefused(
      await as('GET', '/api3/portal/audit?fromDate=0000-01-01T00:00:00Z'),
      'querystring.fromDate',
    );
    expectRefused(
      await as('GET', `/api3/portal/device/${fx.deviceId}/access?at=0000-01-01T00:00:00Z`),
      'querystring.at',
    );
    expectRefused(
      await as('GET', '/api3/portal/activity?before=9999-12-31T23:00:00-05:00'),
      'querystring.before',
    );
    expectRefused(
      await as('POST', `/api3/device/${fx.deviceId}/invite`, { ...inviteBody(), startDate: '0000-01-01' }),
      'body.startDate',
    );
    expectRefused(
      await as('POST', `/api3/portal/device/${fx.deviceId}/schedule/${fx.userId}`, {
        schedule: { windows: [{ days: [1], start: '09:00', end: '17:00' }], startDate: '0000-01-01' },
      }),
      'body.schedule.startDate',
    );
    expectRefused(
      await as('POST', '/api3/portal/rfid', { uid: '04A1B2C3', validFrom: '0000-01-01T00:00:00Z' }),
      'body.validFrom',
    );
  });

  it('keeps serving afterwards', async () => {
    expect((await as('GET', '/api3/portal/devices')).statusCode).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it('describes every nullable value so that null validates (OpenAPI 3.0.3)', () => {
    const wrong: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (Array.isArray(node)) return node.forEach((child, index) => walk(child, `${where}/${index}`));
      if (node === null || typeof node !== 'object') return;
      const schema = node as JsonSchema;
      if (schema.nullable === true && schema.type === undefined)
        wrong.push(`${where}: nullable without a type`);
      if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) {
        wrong.push(`${where}: nullable enum without null`);
      }
      for (const [key, child] of Object.entries(schema)) walk(child, `${where}/${key}`);
    };
    walk(document.paths, 'paths');
    expect(wrong).toEqual([]);
  });

  it('lists every operation the fuzzing below calls', () => {
    expect(operations.length).toBeGreaterThan(100);
    expect(operations.map((o) => `${o.method} ${o.path}`)).toContain('GET /api3/portal/device/logs');
  });
});

describe('fuzzing every operation of the document', () => {
  it('answers NUL and a lone surrogate in every string field with a documented 4xx (issue 16, defect 9)', async () => {
    // Not left to chance: each string field of each operation (path and query parameters, every
    // string in a body, however deep) gets each value once, the rest of the request valid. Before
    // the valid requests, whose deletions would answer 404 whatever a field held.
    const failures: string[] = [];
    let tried = 0;
    for (const operation of operations) {
      for (const target of everyStringField(operation)) {
        for (const character of NUL_AND_SURROGATE) {
          const value = spikedValueFor(operation, target, character);
          const request = buildRequest(operation, { target, value });
          const response = await t.request(request);
          tried++;
          const field =
            target.in === 'body'
              ? `body.${(target.steps ?? [])
                  .map((step) => step.key)
                  .filter((key) => key !== '')
                  .join('.')}`
              : `${target.in}.${target.name}`;
          const problem =
            breach(
              operation,
              response.statusCode,
              String(response.headers['content-type'] ?? ''),
              response.body,
            ) ??
            (response.statusCode >= 400 && response.statusCode < 500
              ? null
              : `answered ${response.statusCode}: the value was taken`);
          if (problem) {
            failures.push(
              `${operation.method} ${operation.path} ${field} with ${JSON.stringify(character)}: ${problem}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(tried).toBeGreaterThan(500);
  }, 300_000);

  it('answers valid requests as documented', async () => {
    const failures: string[] = [];
    let succeeded = 0;
    for (const operation of operations) {
      const response = await t.request(buildRequest(operation));
      if (response.statusCode < 300) succeeded++;
      const problem = breach(
        operation,
        response.statusCode,
        String(response.headers['content-type'] ?? ''),
        response.body,
      );
      if (problem) failures.push(`${operation.method} ${operation.path} ${problem}`);
    }
    expect(failures).toEqual([]);
    // The valid requests reach the handlers, so their 2xx bodies were checked against the document.
    // Some answer a documented 4xx on valid input by nature: one-shot steps (a link token, an access
    // request answered once), a lock that is offline for a remote opening (REST and collection alike),
    // a subscription the fixture portal does not have. 78% since the integrations (issue 21) added
    // more of those (was 80%).
    expect(succeeded).toBeGreaterThan(operations.length * 0.78);
  }, 120_000);

  it('answers hostile values with a documented 4xx, never a 5xx', async () => {
    const failures: string[] = [];
    for (const [index, operation] of operations.entries()) {
      const targets = targetsOf(operation);
      if (targets.length === 0) continue;
      const mutations = fc.sample(fc.record({ target: fc.constantFrom(...targets), value: hostileValue }), {
        seed: SEED + index,
        numRuns: HOSTILE_PER_OPERATION,
      });
      for (const mutation of mutations) {
        const request = buildRequest(operation, mutation);
        const response = await t.request(request);
        const problem = breach(
          operation,
          response.statusCode,
          String(response.headers['content-type'] ?? ''),
          response.body,
        );
        if (problem) {
          failures.push(
            `${operation.method} ${String(request.url).slice(0, 200)} (${JSON.stringify(mutation).slice(0, 120)}) ${problem}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});

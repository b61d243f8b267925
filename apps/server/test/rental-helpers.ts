import crypto from 'node:crypto';
import { addDaysToDate, localWallTime, type CredentialSet, type ListingInput } from '@latchkey/shared';
import sharp from 'sharp';
import { recordPlanChange } from '../src/features/billing/plan-history';
import { setPortalPaymentState } from '../src/features/subscriptions/subscriptions.repository';
import { findDesiredSet } from '../src/features/device-link/credential-set-bodies';
import type { TestApp } from './test-app';

const DAY_MS = 86_400_000;

/** A portal admin, with helpers to add locks and listings through the API. */
export interface RentalPortal {
  token: string;
  portalId: string;
  userId: string;
}

/**
 * A new portal on the Business plan, paid up for a year: rentals are a Business feature (issue 19,
 * item 9), so a portal that lists its locks for stays is on the plan that includes them.
 */
export async function rentalPortal(t: TestApp): Promise<RentalPortal> {
  const admin = await t.signUp();
  await recordPlanChange(t.app.db, admin.portalId, 'business', new Date(Date.now() - DAY_MS).toISOString());
  await setPortalPaymentState(t.app.db, admin.portalId, {
    expireDate: new Date(Date.now() + 365 * DAY_MS).toISOString(),
  });
  return { token: admin.token, portalId: admin.portalId, userId: admin.userId };
}

export async function addLock(
  t: TestApp,
  portal: RentalPortal,
  options: { name?: string; model?: string; timeZone?: string } = {},
): Promise<{ id: string; secret: string }> {
  const response = await t.request({
    method: 'POST',
    url: '/api3/portal/device/new',
    token: portal.token,
    payload: {
      name: options.name ?? 'Flat door',
      model: options.model ?? 'latchkey-sim',
      timeZone: options.timeZone ?? 'Europe/Lisbon',
    },
  });
  if (response.statusCode !== 201) throw new Error(`adding a lock failed: ${response.body}`);
  return { id: response.json().device._id, secret: response.json().deviceSecret };
}

export async function addListing(
  t: TestApp,
  portal: RentalPortal,
  deviceIds: string[],
  input: Partial<ListingInput> = {},
): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/api3/listing/new',
    token: portal.token,
    payload: {
      title: 'Sea view flat',
      deviceIds,
      published: true,
      address: '12 Rua Secreta, Lisbon',
      ...input,
    },
  });
  if (response.statusCode !== 201) throw new Error(`adding a listing failed: ${response.body}`);
  return response.json()._id;
}

/** Sends a stay request from the public page (its own address each time unless told). */
export function requestStay(
  t: TestApp,
  listingId: string,
  body: Record<string, unknown>,
  remoteAddress = `10.1.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`,
) {
  return t.request({
    method: 'POST',
    url: `/api3/device/${listingId}/request`,
    payload: { name: 'Ana Guest', email: `ana-${crypto.randomUUID().slice(0, 6)}@example.com`, ...body },
    remoteAddress,
  });
}

/** Today on a zone's calendar plus `days`. */
export function dayIn(timeZone: string, days: number): string {
  return addDaysToDate(localWallTime(new Date(), timeZone).date, days);
}

/** The set the server holds for a lock now (what the lock gets next). */
export async function desiredSet(t: TestApp, deviceId: string): Promise<CredentialSet | null> {
  await t.app.deviceLink.flushScheduledSyncs();
  const lock = await t.app.db
    .selectFrom('devices')
    .select('portal_id')
    .where('id', '=', deviceId)
    .executeTakeFirst();
  const stored = lock ? await findDesiredSet(t.app.db, lock.portal_id, deviceId) : null;
  return stored?.set ?? null;
}

/** A small real PNG. */
export function png(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .png()
    .toBuffer();
}

/** The mail queued for an address, newest first. */
export function mailTo(t: TestApp, to: string) {
  return t.app.db
    .selectFrom('mail_outbox')
    .select(['template', 'subject', 'text_body'])
    .where('to_address', '=', to)
    .orderBy('created_at', 'desc')
    .execute();
}

/** The token of the newest "keep your stay" link mailed to an address (POST sharelock/add, 202). */
export async function stayAccountLinkToken(t: TestApp, to: string): Promise<string> {
  const mail = (await mailTo(t, to)).find((m) => m.template === 'account_offer_stay');
  const token = mail?.text_body.match(/\/s\/account\?token=([A-Za-z0-9_-]+)/)?.[1];
  if (!token) throw new Error(`no stay account link was mailed to ${to}`);
  return token;
}

/**
 * A guest without an account keeps their stay in one, as they would: asks on the landing page
 * (a link is mailed to the stay's address), follows the mailed link and chooses a password there.
 * Answers the claim's response (200 with a session).
 */
export async function keepStayInNewAccount(
  t: TestApp,
  landingToken: string,
  guest: { email: string; name?: string; password?: string },
  remoteAddress = `10.7.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`,
) {
  const asked = await t.request({
    method: 'POST',
    url: `/api3/device/${landingToken}/sharelock/add`,
    payload: t.seal({ name: guest.name ?? '' }),
    remoteAddress,
  });
  if (asked.statusCode !== 202) throw new Error(`asking for the account link failed: ${asked.body}`);
  return t.request({
    method: 'POST',
    url: '/api3/sharelock/account',
    payload: t.seal({
      token: await stayAccountLinkToken(t, guest.email),
      name: guest.name ?? '',
      password: guest.password ?? 'a sturdy passphrase',
    }),
    remoteAddress,
  });
}

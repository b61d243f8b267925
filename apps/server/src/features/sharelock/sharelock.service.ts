import crypto from 'node:crypto';
import {
  ARRIVAL_DETAILS_DAYS_AFTER_CHECK_OUT,
  signQrToken,
  zonedInstant,
  type DeviceLanding,
  type DeviceLandingInput,
  type ShareLanding,
  type GuestAccountClaim,
  type ShareLockActivation,
  type ShareLockActivationMailed,
  type ShareLockSettings,
  type ShareToken,
  type TokenResponse,
} from '@latchkey/shared';
import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { AccountOfferRow, DeviceLandingRow, ListingRow, StayRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { appendAuditEntry, recordChange } from '../../base/audit/audit.repository';
import { claimAccountOffer, offerAccount } from '../auth/accounts';
import { NO_PASSWORD, verifyPassword } from '../auth/password';
import { issueSessionToken } from '../../base/identity/sessions';
import { findUserByEmail } from '../../base/identity/users.repository';
import { findDevice } from '../devices/devices.repository';
import { stayAccountMail } from '../../base/mail/mail.templates';
import type { PortalSigningKeys } from '../device-link/portal-signing-keys';
import { requireListing, saveShareSettings } from '../listings/listings.service';
import { presentImages } from '../listings/listings.presenter';
import {
  findLanding,
  findListingEvenDeleted,
  listImagesOf,
  listLandingsOf,
  listLocksOfListing,
  saveLanding,
  updateListing,
} from '../listings/listings.repository';
import { describeStayAccess, guestQrSecret, stayTimes } from '../stays/stay-access';
import { listingTimeZone } from '../listings/listing-clock';
import { findGuestAccess, findStayById, updateStay } from '../stays/stays.repository';
import type { StayDeps } from '../rental/rental-context';

/** The listing's share-lock settings as POST device/{id}/sharelock answers them. */
function presentSettings(listing: ListingRow): ShareLockSettings {
  return {
    listingId: listing.id,
    enabled: Number(listing.published) === 1,
    initialTime: listing.initial_minutes,
    startTime: listing.start_time,
    autoAccept: Number(listing.auto_accept) === 1,
    requestPath: `/s/r/${listing.id}`,
  };
}

/** POST device/{listingId}/sharelock: sharing on or off, initialTime, startTime, automatic approval. */
export async function putShareSettings(
  db: Database,
  context: ChangeContext,
  listingId: string,
  input: { enabled?: boolean; initialTime?: number; startTime?: string | null; autoAccept?: boolean },
): Promise<ShareLockSettings> {
  const listing = await saveShareSettings(db, context, listingId, {
    published: input.enabled,
    initialTime: input.initialTime,
    startTime: input.startTime,
    autoAccept: input.autoAccept,
  });
  return presentSettings(listing);
}

/** GET device/{listingId}/sharelock/token: the listing's landing link; `rotate` makes a new one. */
export async function getShareToken(
  db: Database,
  deps: StayDeps,
  context: ChangeContext,
  listingId: string,
  rotate: boolean,
): Promise<ShareToken> {
  let listing = await requireListing(db, context.portalId, listingId);
  if (rotate) {
    listing = await db.transaction().execute(async (trx) => {
      await updateListing(trx, context.portalId, listingId, {
        share_token_version: listing.share_token_version + 1,
        share_token_rotated_at: nowIso(),
      });
      await recordChange(trx, context, {
        action: 'listing.sharelock.token.rotate',
        entityType: 'listing',
        entityId: listingId,
        after: { version: listing.share_token_version + 1 },
      });
      return (await requireListing(trx, context.portalId, listingId))!;
    });
  }
  const token = deps.tokens.sign('listing', listing.id, listing.share_token_version);
  return {
    token,
    landingPath: `/s?t=${encodeURIComponent(token)}`,
    rotatedAt: toIso(listing.share_token_rotated_at),
  };
}

function presentLanding(
  deviceId: string,
  row: DeviceLandingRow | undefined,
  images: DeviceLanding['images'],
) {
  return {
    deviceId,
    text: row?.text ?? '',
    wifiName: row?.wifi_name ?? '',
    wifiPassword: row?.wifi_password ?? '',
    parking: row?.parking ?? '',
    images,
    updatedAt: toIso(row?.updated_at ?? null),
  };
}

async function requireDevice(db: Database, portalId: string, deviceId: string) {
  const device = await findDevice(db, portalId, deviceId);
  if (!device) throw AppError.notFound('Lock');
  return device;
}

/** GET portal/device/{id}/landing: a lock's arrival instructions. */
export async function getDeviceLanding(
  db: Database,
  portalId: string,
  deviceId: string,
): Promise<DeviceLanding> {
  await requireDevice(db, portalId, deviceId);
  const [row, images] = await Promise.all([
    findLanding(db, portalId, deviceId),
    listImagesOf(db, portalId, 'landing', [deviceId]),
  ]);
  return presentLanding(deviceId, row, presentImages(portalId, images));
}

/** POST device/{id}/sharelock/landing: replaces a lock's arrival instructions. */
export async function putDeviceLanding(
  db: Database,
  context: ChangeContext,
  deviceId: string,
  input: Required<DeviceLandingInput>,
): Promise<DeviceLanding> {
  await db.transaction().execute(async (trx) => {
    const device = await requireDevice(trx, context.portalId, deviceId);
    const before = await findLanding(trx, context.portalId, deviceId);
    await saveLanding(trx, {
      device_id: deviceId,
      portal_id: context.portalId,
      text: input.text,
      wifi_name: input.wifiName,
      wifi_password: input.wifiPassword,
      parking: input.parking,
      updated_at: nowIso(),
    });
    // The Wi-Fi password is a secret of sorts: the change log says it changed, not what it is.
    const logged = (row: { text: string; wifiName: string; parking: string; wifiPassword: string } | null) =>
      row && {
        text: row.text,
        wifiName: row.wifiName,
        parking: row.parking,
        wifiPasswordSet: row.wifiPassword !== '',
      };
    await recordChange(trx, context, {
      action: 'device.landing.update',
      entityType: 'device',
      entityId: deviceId,
      before: logged(
        before
          ? {
              text: before.text,
              wifiName: before.wifi_name,
              parking: before.parking,
              wifiPassword: before.wifi_password,
            }
          : null,
      ),
      after: { device: device.name, ...logged(input) },
    });
  });
  return getDeviceLanding(db, context.portalId, deviceId);
}

/**
 * The public pages' lookups: a stay by the id its signed link names (the link is the proof; the
 * stay's portal comes from the row). Never reached without a genuine token.
 */
function findStayAnywhere(db: Database, stayId: string) {
  return db.selectFrom('stays').selectAll().where('id', '=', stayId).executeTakeFirst();
}
function findListingAnywhere(db: Database, listingId: string) {
  return db
    .selectFrom('listings')
    .selectAll()
    .where('id', '=', listingId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * A guest's link no longer opens anything once its stay is cancelled or declined: ending a stay
 * raises its `guest_token_version` (stays.repository.ts `updateStay`), and a stay in either state
 * is refused whatever its version (docs/decisions.md "Links and access that end").
 */
function linkEnded() {
  return new AppError(
    'link_ended',
    'This link no longer works: the stay it was for was cancelled or declined. Ask your host if you think this is wrong.',
    410,
  );
}

/** Until when a guest's link shows the way in: some days after the stay's check-out instant. */
export function arrivalDetailsUntil(
  stay: Pick<StayRow, 'end_date' | 'check_in_time' | 'check_out_time'>,
  listing: ListingRow,
  timeZone: string,
): Date {
  const checkOut = zonedInstant(stay.end_date, stayTimes(stay, listing).checkOutTime, timeZone);
  return new Date(checkOut.getTime() + ARRIVAL_DETAILS_DAYS_AFTER_CHECK_OUT * 86_400_000);
}

/**
 * A signed link's listing or stay; 404 for anything else (a rotated link, a forged one, a typo),
 * 410 for the genuine link of a stay that was cancelled or declined.
 */
async function openToken(
  db: Database,
  deps: StayDeps,
  token: string,
): Promise<{ listing: ListingRow; stay: StayRow | null }> {
  const read = deps.tokens.read(token);
  const notFound = () => AppError.notFound('Link');
  if (!read) throw notFound();
  if (read.kind === 'listing') {
    const listing = await findListingAnywhere(db, read.id);
    if (!listing || listing.share_token_version !== read.version) throw notFound();
    return { listing, stay: null };
  }
  // A calendar feed's or a review page's link opens nothing here.
  if (read.kind !== 'stay') throw notFound();
  const stay = await findStayAnywhere(db, read.id);
  if (!stay) throw notFound();
  if (stay.guest_token_version !== read.version || stay.state === 'cancelled' || stay.state === 'declined') {
    throw linkEnded();
  }
  const listing = await findListingEvenDeleted(db, stay.portal_id, stay.listing_id);
  if (!listing) throw notFound();
  return { listing, stay };
}

/**
 * GET device/token/{token} (no sign-in): the landing page. A listing's link shows its address,
 * house rules and each lock's arrival instructions; a guest's link adds their own stay, and their
 * code and a fresh QR code once every lock has confirmed them. Nobody else's name or code.
 */
export async function openShareLanding(
  db: Database,
  deps: StayDeps,
  keys: PortalSigningKeys,
  token: string,
  now = new Date(),
): Promise<ShareLanding> {
  const { listing, stay } = await openToken(db, deps, token);
  const portalId = listing.portal_id;
  const locks = await listLocksOfListing(db, portalId, listing.id);
  const deviceIds = locks.map((l) => l.id);
  const timeZone = listingTimeZone(locks);
  // A past stay's link keeps its dates, the address and the house rules, not the way in.
  const arrivalUntil = stay ? arrivalDetailsUntil(stay, listing, timeZone) : null;
  const arrivalShown = arrivalUntil === null || now < arrivalUntil;
  const [listingImages, landings, landingImages] = await Promise.all([
    listImagesOf(db, portalId, 'listing', [listing.id]),
    arrivalShown ? listLandingsOf(db, portalId, deviceIds) : [],
    arrivalShown ? listImagesOf(db, portalId, 'landing', deviceIds) : [],
  ]);
  const landingOf = new Map(landings.map((l) => [l.device_id, l]));
  let stayView: ShareLanding['stay'] = null;
  if (stay) {
    const access = (await describeStayAccess(db, portalId, [stay.id])).get(stay.id) ?? [];
    const guest = access.find((a) => a.holder === 'guest' && !a.removed);
    const ready =
      arrivalShown && stay.state === 'approved' && stay.access_state === 'ready' && guest !== undefined;
    let qr: NonNullable<ShareLanding['stay']>['qr'] = null;
    if (ready && Date.parse(guest.validUntil) > now.getTime()) {
      const row = await findGuestAccess(db, portalId, stay.id);
      if (row?.qr_credential_id) {
        const signed = signQrToken(
          {
            userId: guestQrSecret(row.id),
            nonce: crypto.randomBytes(9).toString('base64url'),
            issuedAt: now,
          },
          keys.keyPairOf(portalId).secretKey,
        );
        qr = {
          token: signed.token,
          expiresAt: signed.expiresAt.toISOString(),
          qrCode: await QRCode.toDataURL(signed.token, { errorCorrectionLevel: 'M', margin: 2, width: 480 }),
        };
      }
    }
    stayView = {
      guestName: stay.guest_name,
      startDate: stay.start_date,
      endDate: stay.end_date,
      ...stayTimes(stay, listing),
      state: stay.state,
      accessState: stay.access_state,
      accessFrom: guest?.validFrom ?? toIso(stay.created_at),
      accessUntil: guest?.validUntil ?? toIso(stay.created_at),
      code: ready ? guest.code : null,
      qr,
      accountLinked: stay.guest_user_id !== null,
      arrivalUntil: arrivalUntil!.toISOString(),
      arrivalShown,
    };
  }
  return {
    kind: stay ? 'stay' : 'listing',
    listing: {
      _id: listing.id,
      title: listing.title,
      address: listing.address,
      checkInTime: listing.check_in_time,
      checkOutTime: listing.check_out_time,
      houseRules: listing.house_rules,
      timeZone,
      images: presentImages(portalId, listingImages),
      requestPath:
        Number(listing.published) === 1 && listing.deleted_at === null ? `/s/r/${listing.id}` : null,
    },
    locks: locks.map((lock) => {
      const landing = landingOf.get(lock.id);
      return {
        name: lock.name,
        text: landing?.text ?? '',
        wifiName: landing?.wifi_name ?? '',
        wifiPassword: landing?.wifi_password ?? '',
        parking: landing?.parking ?? '',
        images: presentImages(
          portalId,
          landingImages.filter((image) => image.owner_id === lock.id),
        ),
      };
    }),
    stay: stayView,
  };
}

/** An address as a page may show it to whoever holds a guest link: `v•••@example.org`. */
export function maskAddress(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${Array.from(email.slice(0, at))[0]}•••${email.slice(at)}`;
}

/** Keeps a stay in an account, in the change log of the stay's portal. */
async function linkStayToAccount(db: Database, stay: StayRow, userId: string, ip: string): Promise<void> {
  await updateStay(db, stay.portal_id, stay.id, { guest_user_id: userId });
  await appendAuditEntry(db, stay.portal_id, {
    actorUserId: userId,
    action: 'stay.activate',
    entityType: 'stay',
    entityId: stay.id,
    after: { guestEmail: stay.guest_email },
    ip,
  });
}

/**
 * POST device/{activation}/sharelock/add (no sign-in, sealed): the guest keeps their stay in an
 * account. The guest link is shown to the stay's hosts too, so it proves nothing about the address
 * (issue 16 defect 1): with an account at the stay's address, the password must be its own
 * (sign-in limits apply) and a session is answered; without one, nothing is made here: the
 * accounts module mails a single-use link to the stay's address only, where its owner chooses a
 * password (claimStayAccount), and the answer says where it went. A stay without a guest address
 * (an imported reservation) is a 400: no account is ever made without an address.
 */
export async function activateStay(
  app: FastifyInstance,
  deps: StayDeps,
  activation: string,
  input: Required<ShareLockActivation>,
  ip: string,
): Promise<{ session: TokenResponse } | { mailed: ShareLockActivationMailed }> {
  const { stay, listing } = await openToken(app.db, deps, activation);
  if (!stay) throw AppError.notFound('Link');
  if (!stay.guest_email.trim()) {
    throw AppError.badRequest('This stay has no guest address; ask your host to add it');
  }
  if (stay.state !== 'approved') throw AppError.conflict(`This stay is ${stay.state}`);
  const email = stay.guest_email;
  const user = await findUserByEmail(app.db, email);
  if (!user) {
    await app.authLimits.countAccountMail(ip, email);
    await offerAccount(app.db, {
      email,
      purpose: 'stay',
      portalId: stay.portal_id,
      subjectId: stay.id,
      link: (token) => `${deps.publicUrl}/s/account?token=${token}`,
      render: (link) => stayAccountMail({ guestName: stay.guest_name, listingTitle: listing.title, link }),
    });
    const sentTo = maskAddress(email);
    return {
      mailed: {
        message: `We sent a link to ${sentTo}. Follow it to choose your password and keep this stay in your account.`,
        sentTo,
      },
    };
  }
  if (user.password_hash === NO_PASSWORD) {
    // An account a portal invited and its owner has not finished: its password is chosen there.
    throw AppError.conflict(
      `${maskAddress(email)} has an invitation to Latchkey waiting: follow the link in that mail to choose your password, then keep your stay with it`,
    );
  }
  await app.authLimits.countLoginAttempt(ip, email);
  if (!(await verifyPassword(user.password_hash, input.password))) {
    await app.authLimits.countLoginFailure(ip, email);
    throw new AppError('invalid_credentials', `That is not the password of the account for ${email}`, 401);
  }
  await app.authLimits.clearLoginFailures(ip, email);
  if (user.status !== 'active') throw AppError.forbidden('Your account is suspended');
  await app.db.transaction().execute((trx) => linkStayToAccount(trx, stay, user.id, ip));
  return { session: await issueSessionToken(app.secrets.jwtKey, user, app.config.SESSION_TTL_HOURS) };
}

/**
 * POST sharelock/account (no sign-in, sealed): the owner of a stay's address followed the link
 * mailed there and chose a password. The accounts module makes the account, confirmed (the link
 * proved the address), and in the same transaction the stay is kept in it, if its guest address is
 * still the one the link went to. Answers a session.
 */
export async function claimStayAccount(
  app: FastifyInstance,
  input: Required<GuestAccountClaim>,
  ip: string,
): Promise<TokenResponse> {
  const stayOf = (trx: Database, offer: AccountOfferRow) =>
    offer.portal_id && offer.subject_id
      ? findStayById(trx, offer.portal_id, offer.subject_id)
      : Promise.resolve(undefined);
  const { user } = await claimAccountOffer(
    app.db,
    input.token,
    { password: input.password, firstName: input.name },
    {
      timeZone: async (trx, offer) => {
        const stay = await stayOf(trx, offer);
        return stay ? listingTimeZone(await listLocksOfListing(trx, stay.portal_id, stay.listing_id)) : 'UTC';
      },
      defaultName: async (trx, offer) => (await stayOf(trx, offer))?.guest_name ?? '',
      then: async (trx, created, offer) => {
        const stay = await stayOf(trx, offer);
        if (stay && stay.guest_email === offer.email) await linkStayToAccount(trx, stay, created.id, ip);
      },
    },
  );
  return issueSessionToken(app.secrets.jwtKey, user, app.config.SESSION_TTL_HOURS);
}

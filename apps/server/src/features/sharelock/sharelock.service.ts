import crypto from 'node:crypto';
import {
  signQrToken,
  type DeviceLanding,
  type DeviceLandingInput,
  type ShareLanding,
  type ShareLockActivation,
  type ShareLockSettings,
  type ShareToken,
  type TokenResponse,
} from '@latchkey/shared';
import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { DeviceLandingRow, ListingRow, StayRow } from '../../db/schema';
import type { ChangeContext } from '../../http/access';
import { AppError } from '../../http/errors';
import { appendAuditEntry, recordChange } from '../audit/audit.repository';
import { createAccount } from '../auth/account.service';
import { verifyPassword } from '../auth/password';
import { issueSessionToken } from '../auth/session.service';
import { findUserByEmail } from '../auth/users.repository';
import { findDevice } from '../devices/devices.repository';
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
import { describeStayAccess, guestQrSecret, listingTimeZone, stayTimes } from '../stays/stay-access';
import { findGuestAccess, updateStay } from '../stays/stays.repository';
import type { StayDeps } from '../stays/stays.service';

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

/** A signed link's listing or stay; 404 for anything else (a rotated link, a forged one, a typo). */
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
  if (!stay || stay.guest_token_version !== read.version) throw notFound();
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
  const [listingImages, landings, landingImages] = await Promise.all([
    listImagesOf(db, portalId, 'listing', [listing.id]),
    listLandingsOf(db, portalId, deviceIds),
    listImagesOf(db, portalId, 'landing', deviceIds),
  ]);
  const landingOf = new Map(landings.map((l) => [l.device_id, l]));
  const timeZone = listingTimeZone(locks);
  let stayView: ShareLanding['stay'] = null;
  if (stay) {
    const access = (await describeStayAccess(db, portalId, [stay.id])).get(stay.id) ?? [];
    const guest = access.find((a) => a.holder === 'guest' && !a.removed);
    const ready = stay.state === 'approved' && stay.access_state === 'ready' && guest !== undefined;
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

/**
 * POST device/{activation}/sharelock/add (no sign-in, sealed): the guest keeps their stay in an
 * account. The link came by mail to the stay's address, so it proves the address: without an
 * account there, one is made (confirmed) with this name and password, and its own portal like any
 * sign-up; with one, the password must be its password (sign-in limits apply). Answers a session.
 */
export async function activateStay(
  app: FastifyInstance,
  deps: StayDeps,
  activation: string,
  input: Required<ShareLockActivation>,
  ip: string,
): Promise<TokenResponse> {
  const { stay, listing } = await openToken(app.db, deps, activation);
  if (!stay) throw AppError.notFound('Link');
  if (stay.state !== 'approved') throw AppError.conflict(`This stay is ${stay.state}`);
  const email = stay.guest_email;
  let user = await findUserByEmail(app.db, email);
  if (user) {
    await app.authLimits.countLoginAttempt(ip, email);
    if (!(await verifyPassword(user.password_hash, input.password))) {
      await app.authLimits.countLoginFailure(ip, email);
      throw new AppError('invalid_credentials', `That is not the password of the account for ${email}`, 401);
    }
    await app.authLimits.clearLoginFailures(ip, email);
    if (user.status !== 'active') throw AppError.forbidden('Your account is suspended');
  } else {
    await app.authLimits.countSignup(ip);
    user = await createAccount(
      app.db,
      { email, password: input.password, firstName: input.name || stay.guest_name, lastName: '' },
      {
        emailVerified: true,
        timeZone: listingTimeZone(await listLocksOfListing(app.db, stay.portal_id, listing.id)),
      },
    );
  }
  const userId = user.id;
  await app.db.transaction().execute(async (trx) => {
    await updateStay(trx, stay.portal_id, stay.id, { guest_user_id: userId });
    await appendAuditEntry(trx, stay.portal_id, {
      actorUserId: userId,
      action: 'stay.activate',
      entityType: 'stay',
      entityId: stay.id,
      after: { guestEmail: email },
      ip,
    });
  });
  return issueSessionToken(app.secrets.jwtKey, user, app.config.SESSION_TTL_HOURS);
}

import crypto from 'node:crypto';
import {
  signQrToken,
  signSyncToken,
  type QrToken,
  type SyncToken,
  type SyncTokenRequest,
} from '@latchkey/shared';
import QRCode from 'qrcode';
import type { Database } from '../../db/database';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { buildCredentialSet } from '../access/access.service';
import { recordChange } from '../../base/audit/audit.repository';
import { findDevice } from '../devices/devices.repository';
import { findSync } from './device-link.repository';
import type { PortalSigningKeys } from './portal-signing-keys';

/**
 * What a person's phone carries to a lock, signed with the portal's key so the lock can check it
 * offline: a QR code that opens like their app, and their current credentials for a lock that
 * cannot reach the server (docs/device-protocol.md, "Phone tokens").
 */

/** A token as a PNG QR code; medium error correction reads well off a bright or scratched screen. */
function asQrCode(token: string): Promise<string> {
  return QRCode.toDataURL(token, { errorCorrectionLevel: 'M', margin: 2, width: 480 });
}

/** POST user/qr: a fresh single-use QR code for the signed-in person in the acting portal. */
export async function issueQrToken(
  keys: PortalSigningKeys,
  portalId: string,
  userId: string,
): Promise<QrToken> {
  const { token, expiresAt } = signQrToken(
    { userId, nonce: crypto.randomBytes(9).toString('base64url'), issuedAt: new Date() },
    keys.keyPairOf(portalId).secretKey,
  );
  return { token, expiresAt: expiresAt.toISOString(), qrCode: await asQrCode(token) };
}

/**
 * POST device/{id}/synclock/user/token: the caller's entries on the lock as the server would send
 * them now, for the phone to hand to a lock that is offline. Someone with nothing on the lock gets
 * a 403: there is nothing of theirs to carry.
 */
export async function issueSyncToken(
  db: Database,
  keys: PortalSigningKeys,
  context: ChangeContext,
  deviceId: string,
  request: SyncTokenRequest,
): Promise<SyncToken> {
  const device = await findDevice(db, context.portalId, deviceId);
  if (!device) throw AppError.notFound('Lock');
  const set = await buildCredentialSet(db, context.portalId, device);
  const entries = set.entries.filter((entry) => entry.userId === context.actorUserId);
  if (entries.length === 0) throw AppError.forbidden('You have no access to this lock');
  const version = (await findSync(db, context.portalId, deviceId))?.desired_version ?? 0;
  const { token, expiresAt } = signSyncToken(
    { deviceId, userId: context.actorUserId, version, entries, issuedAt: new Date() },
    keys.keyPairOf(context.portalId).secretKey,
  );
  await recordChange(db, context, {
    action: 'device.synclock.token',
    entityType: 'device',
    entityId: deviceId,
    userId: context.actorUserId,
    after: {
      version,
      entries: entries.length,
      expiresAt: expiresAt.toISOString(),
      location: request.location ?? null,
    },
  });
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    version,
    entries: entries.length,
    // A person with many cards and fingerprints can outgrow the largest QR code.
    qrCode: await asQrCode(token).catch(() => null),
  };
}

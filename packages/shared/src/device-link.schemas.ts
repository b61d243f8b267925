import { z } from 'zod';
import { credentialKindSchema } from './access/access.schemas';
import { listQuerySchema, pageSchema } from './list-query';
import { COMMAND_ERRORS, CREDENTIAL_REJECTIONS } from './device-protocol';

// The portal's view of the device link: how far a lock's credential set got, and remote commands.

/** Where one credential stands on one lock. */
export const CREDENTIAL_SYNC_STATES = ['pending', 'sent', 'confirmed', 'rejected'] as const;
export type CredentialSyncState = (typeof CREDENTIAL_SYNC_STATES)[number];

/** GET device/{id}/sync: desired vs confirmed credential set, per-credential state, and liveness. */
export const deviceSyncSchema = z.object({
  deviceId: z.string(),
  /** The version the lock should hold; null before the server computed its first set. */
  desiredVersion: z.number().int().nullable(),
  desiredAt: z.iso.datetime().nullable(),
  /** The newest version handed to the broker (retained) and when. */
  sentVersion: z.number().int().nullable(),
  sentAt: z.iso.datetime().nullable(),
  /** The newest version the lock acknowledged on credentials/ack and when. */
  confirmedVersion: z.number().int().nullable(),
  confirmedAt: z.iso.datetime().nullable(),
  /** The version the lock last reported in its status. */
  reportedVersion: z.number().int().nullable(),
  inSync: z.boolean(),
  rejected: z.array(
    z.object({
      credentialId: z.string(),
      version: z.number().int(),
      reason: z.enum(CREDENTIAL_REJECTIONS),
      rejectedAt: z.iso.datetime(),
    }),
  ),
  /** Every credential of the desired set: pending → sent → confirmed or rejected. */
  credentials: z.array(
    z.object({
      credentialId: z.string(),
      kind: credentialKindSchema,
      /** Whose it is, in words: a person's name, "Company code: Cleaners", "Guest", "Master code". */
      holder: z.string(),
      /** The person it belongs to; null for company, guest and master codes. */
      userId: z.string().nullable(),
      sinceVersion: z.number().int(),
      state: z.enum(CREDENTIAL_SYNC_STATES),
      reason: z.enum(CREDENTIAL_REJECTIONS).nullable(),
    }),
  ),
  online: z.boolean(),
  lastSeenAt: z.iso.datetime().nullable(),
});
export type DeviceSync = z.infer<typeof deviceSyncSchema>;

/** POST device/{id}/command. */
export const deviceCommandRequestSchema = z.object({ action: z.enum(['unlock', 'lock']) });
export type DeviceCommandRequest = z.infer<typeof deviceCommandRequestSchema>;

/**
 * The error code of a command refused because its lock is not connected now (409): it would only
 * wait out its expiry. The message names the lock and when it was last seen, or that it never was.
 */
export const LOCK_OFFLINE = 'lock_offline';

/**
 * The error code of an admin's remote unlock refused because a lockout that does not let admins
 * through is in effect at the lock (409): the lockout page promises that nobody opens it, admins
 * included. Locking stays possible; a basic user is refused by their own access check (403).
 */
export const LOCKOUT_IN_EFFECT = 'lockout_in_effect';

export const DEVICE_COMMAND_STATUSES = ['pending', 'ok', 'failed', 'expired'] as const;

/** A remote command and the lock's answer: pending until it answers or expiresAt passes. */
export const deviceCommandRecordSchema = z.object({
  commandId: z.string(),
  deviceId: z.string(),
  /** Who sent it (a basic user follows only their own). */
  userId: z.string().nullable(),
  action: z.enum(['unlock', 'lock']),
  status: z.enum(DEVICE_COMMAND_STATUSES),
  error: z.enum(COMMAND_ERRORS).nullable(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  answeredAt: z.iso.datetime().nullable(),
});
export type DeviceCommandRecord = z.infer<typeof deviceCommandRecordSchema>;

/** Where a lock stands in the sync center, the first that applies in this order. */
export const SYNC_CENTER_STATES = ['never_connected', 'failing', 'pending', 'offline', 'in_sync'] as const;
export type SyncCenterState = (typeof SYNC_CENTER_STATES)[number];

/** GET portal/sync: every lock's credential sync, paged; filterBy=state with one of the states. */
export const syncCenterQuerySchema = listQuerySchema({
  sortBy: ['name', 'lastSeenAt', 'pending'],
  filterBy: ['state'],
});
export type SyncCenterQuery = z.output<typeof syncCenterQuerySchema>;

export const syncCenterItemSchema = z.object({
  _id: z.string(),
  name: z.string(),
  online: z.boolean(),
  lastSeenAt: z.iso.datetime().nullable(),
  desiredVersion: z.number().int().nullable(),
  confirmedVersion: z.number().int().nullable(),
  /** Credentials of the desired set the lock has not confirmed yet. */
  pendingCount: z.number().int(),
  /** Entries the lock refused in its last acknowledgement. */
  rejectedCount: z.number().int(),
  state: z.enum(SYNC_CENTER_STATES),
});
export type SyncCenterItem = z.infer<typeof syncCenterItemSchema>;
export const syncCenterPageSchema = pageSchema(syncCenterItemSchema);

/** GET user/{id}/sync: one person's credentials on each lock they reach, with each one's state. */
export const userSyncSchema = z.object({
  locks: z.array(
    z.object({
      _id: z.string(),
      name: z.string(),
      online: z.boolean(),
      lastSeenAt: z.iso.datetime().nullable(),
      credentials: deviceSyncSchema.shape.credentials,
    }),
  ),
});
export type UserSync = z.infer<typeof userSyncSchema>;

/** POST user/qr: a QR code for the signed-in person to show at a lock's reader (phone-tokens.ts). */
export const qrTokenSchema = z.object({
  token: z.string(),
  expiresAt: z.iso.datetime(),
  /** The token as a PNG QR code, a data: URL. */
  qrCode: z.string(),
});
export type QrToken = z.infer<typeof qrTokenSchema>;

/** POST device/{id}/synclock/user/token: where the phone is when it asks (kept in the change log). */
export const syncTokenRequestSchema = z.object({
  location: z
    .object({
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      /** Metres, as the phone reports it. */
      accuracy: z.number().min(0).max(100_000).optional(),
    })
    .optional(),
});
export type SyncTokenRequest = z.infer<typeof syncTokenRequestSchema>;

/** The update for the phone to carry: the person's entries on that lock, signed, short-lived. */
export const syncTokenSchema = z.object({
  token: z.string(),
  expiresAt: z.iso.datetime(),
  /** The lock's desired set version the entries were cut from. */
  version: z.number().int().min(0),
  /** How many of the person's credentials it carries. */
  entries: z.number().int().min(0),
  /**
   * The token as a PNG QR code (data: URL), for a lock that takes it at its QR reader; null when
   * it holds too much for one code (the phone hands it over another way, e.g. Bluetooth).
   */
  qrCode: z.string().nullable(),
});
export type SyncToken = z.infer<typeof syncTokenSchema>;

import { z } from 'zod';
import { accountTokenSchema, newPasswordSchema } from '../auth.schemas';
import { PASSWORD_MAX_LENGTH } from '../constants';
import { lineText, multilineText, passwordText } from '../safe-input';
import { clockTimeSchema, rentalImageSchema } from './listings.schemas';
import { STAY_ACCESS_STATES, STAY_STATES } from './stays.schemas';

/**
 * The brief's share-lock calls (§7 Devices). `device/{id}/sharelock` and `…/sharelock/token` name a
 * listing (the brief's product shared one lock per listing; here a listing opens several);
 * `…/sharelock/landing` and `portal/device/{id}/landing` name a lock: each lock has its own arrival
 * instructions (the building's entrance, the flat's door).
 */

/** POST device/{listingId}/sharelock: sharing on or off, and the share-lock settings. */
export const shareLockSettingsInputSchema = z
  .object({
    enabled: z.boolean(),
    /** Minutes before check-in that a guest's access starts. */
    initialTime: z.number().int().min(0).max(1440, 'must be at most 1440 minutes (a day)'),
    /** The earliest time of day on the arrival date access starts; null: no limit. */
    startTime: clockTimeSchema.nullable(),
    autoAccept: z.boolean(),
  })
  .partial()
  .refine(
    (value) => Object.keys(value).length > 0,
    'enabled, initialTime, startTime or autoAccept is required',
  );
export type ShareLockSettingsInput = z.infer<typeof shareLockSettingsInputSchema>;

export const shareLockSettingsSchema = z.object({
  listingId: z.string(),
  enabled: z.boolean(),
  initialTime: z.number().int(),
  startTime: z.string().nullable(),
  autoAccept: z.boolean(),
  /** The public request page. */
  requestPath: z.string(),
});
export type ShareLockSettings = z.infer<typeof shareLockSettingsSchema>;

/** GET device/{listingId}/sharelock/token: the listing's public landing link (rotate=true: a new one). */
export const shareTokenQuerySchema = z.object({
  rotate: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
    .transform((value) => value === true || value === 'true' || value === '1')
    .default(false),
});
export const shareTokenSchema = z.object({
  token: z.string(),
  /** /s?t=…: opens the listing's landing (arrival instructions), without any guest's data. */
  landingPath: z.string(),
  rotatedAt: z.iso.datetime().nullable(),
});
export type ShareToken = z.infer<typeof shareTokenSchema>;

/** A lock's arrival instructions, as its admins edit them. */
export const deviceLandingSchema = z.object({
  deviceId: z.string(),
  text: z.string(),
  wifiName: z.string(),
  wifiPassword: z.string(),
  parking: z.string(),
  images: z.array(rentalImageSchema),
  updatedAt: z.iso.datetime().nullable(),
});
export type DeviceLanding = z.infer<typeof deviceLandingSchema>;

/** POST device/{deviceId}/sharelock/landing. */
export const deviceLandingInputSchema = z.object({
  text: multilineText().max(4000).default(''),
  wifiName: lineText().max(64).default(''),
  wifiPassword: lineText().max(64).default(''),
  parking: multilineText().max(1000).default(''),
});
export type DeviceLandingInput = z.input<typeof deviceLandingInputSchema>;

/** A signed QR code the guest shows at the reader (valid two minutes; the page renews it). */
export const guestQrSchema = z.object({ token: z.string(), qrCode: z.string(), expiresAt: z.iso.datetime() });

/**
 * How long a guest's link keeps showing the way in (arrival text, Wi-Fi, parking, the locks'
 * pictures) after the stay's check-out instant: long enough to look up the Wi-Fi name of a bill or
 * a forgotten parking note, short enough that an old mail stops opening the house's secrets.
 */
export const ARRIVAL_DETAILS_DAYS_AFTER_CHECK_OUT = 3;

/**
 * GET device/token/{token} (no sign-in): the landing page (/s). A listing's share link shows its
 * arrival instructions; a guest's link adds their own stay, code and QR code. Never anyone else's.
 */
export const shareLandingSchema = z.object({
  kind: z.enum(['listing', 'stay']),
  listing: z.object({
    _id: z.string(),
    title: z.string(),
    address: z.string(),
    checkInTime: z.string(),
    checkOutTime: z.string(),
    houseRules: z.string(),
    timeZone: z.string(),
    images: z.array(rentalImageSchema),
    /** Its public request page, if published. */
    requestPath: z.string().nullable(),
  }),
  locks: z.array(
    z.object({
      name: z.string(),
      text: z.string(),
      wifiName: z.string(),
      wifiPassword: z.string(),
      parking: z.string(),
      images: z.array(rentalImageSchema),
    }),
  ),
  stay: z
    .object({
      guestName: z.string(),
      startDate: z.iso.date(),
      endDate: z.iso.date(),
      checkInTime: z.string(),
      checkOutTime: z.string(),
      state: z.enum(STAY_STATES),
      accessState: z.enum(STAY_ACCESS_STATES),
      accessFrom: z.iso.datetime(),
      accessUntil: z.iso.datetime(),
      /** The guest's code, once every lock has confirmed it. */
      code: z.string().nullable(),
      /** A fresh QR code, within the access window once the locks have it. */
      qr: guestQrSchema.nullable(),
      /** The stay was saved to an account (POST device/{activation}/sharelock/add). */
      accountLinked: z.boolean(),
      /**
       * Until when this link shows the way in (ARRIVAL_DETAILS_DAYS_AFTER_CHECK_OUT after check-out);
       * after it `locks` carries only the locks' names and `arrivalShown` is false.
       */
      arrivalUntil: z.iso.datetime(),
      arrivalShown: z.boolean(),
    })
    .nullable(),
});
export type ShareLanding = z.infer<typeof shareLandingSchema>;

/**
 * POST device/{activation}/sharelock/add (no sign-in; sealed): the guest keeps their stay in an
 * account. `activation` is the guest's link token, which hosts see too, so it proves nothing about
 * the address: with an account for the stay's email, `password` must be its password (answers a
 * session); without one, nothing is made here: a link goes to the stay's address, where its owner
 * chooses a password (POST sharelock/account), and the answer says where it went (202).
 */
export const shareLockActivationSchema = z.object({
  name: lineText().max(80).default(''),
  password: passwordText().max(PASSWORD_MAX_LENGTH).default(''),
});
export type ShareLockActivation = z.input<typeof shareLockActivationSchema>;

/** The 202 of POST device/{activation}/sharelock/add: a link went to the stay's address. */
export const shareLockActivationMailedSchema = z.object({
  message: z.string(),
  /** The address the link went to, partly hidden (`v•••@example.org`). */
  sentTo: z.string(),
});
export type ShareLockActivationMailed = z.infer<typeof shareLockActivationMailedSchema>;

/**
 * POST sharelock/account (no sign-in; sealed): the owner of a stay's address followed the link
 * mailed there (/s/account?token=…) and chooses their password: the account is made, confirmed,
 * the stay kept in it, and a session answered.
 */
export const guestAccountClaimSchema = z.object({
  token: accountTokenSchema,
  name: lineText().max(80).default(''),
  password: newPasswordSchema,
});
export type GuestAccountClaim = z.input<typeof guestAccountClaimSchema>;

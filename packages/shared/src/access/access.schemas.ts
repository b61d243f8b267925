import { z } from 'zod';
import { timeZoneSchema } from '../portal.schemas';
import { PORTAL_ROLES } from '../roles';
import { dateInput } from '../safe-input';

/** 'HH:MM' on a 24-hour clock, 00:00–23:59. */
const CLOCK_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
/** An end of window may also be 24:00, the midnight that ends the day. */
const END_CLOCK_PATTERN = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** Minutes since local midnight of an 'HH:MM' string (24:00 → 1440). */
export function clockToMinutes(clock: string): number {
  return Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
}

/**
 * A weekly window on the lock's wall clock. When `end` is not after `start` (22:00–06:00) the window
 * is overnight: it belongs to the day it starts on and runs into the next day.
 */
export const weeklyWindowSchema = z
  .object({
    /** 0 = Sunday … 6 = Saturday. */
    days: z
      .array(z.number().int().min(0, 'must be 0 (Sunday) to 6').max(6, 'must be 0 (Sunday) to 6'))
      .min(1, 'needs at least one day')
      .max(7)
      .refine((days) => new Set(days).size === days.length, 'must not repeat a day'),
    start: z.string().regex(CLOCK_PATTERN, 'must be HH:MM between 00:00 and 23:59'),
    end: z.string().regex(END_CLOCK_PATTERN, 'must be HH:MM between 00:00 and 24:00'),
  })
  .refine((window) => window.start !== window.end, {
    message: 'end must differ from start (use 00:00–24:00 for a whole day)',
    path: ['end'],
  });
export type WeeklyWindow = z.infer<typeof weeklyWindowSchema>;

function scheduleWith(date: (message: string) => z.ZodISODate) {
  return z
    .object({
      windows: z.array(weeklyWindowSchema).min(1, 'needs at least one window').max(28),
      /** Local date in the lock's zone; a window occurrence counts if the day it starts on is in range. */
      startDate: date('must be a date YYYY-MM-DD').optional(),
      endDate: date('must be a date YYYY-MM-DD').optional(),
    })
    .refine(
      // ISO dates of the same shape compare correctly as strings.
      (schedule) => !schedule.startDate || !schedule.endDate || schedule.endDate >= schedule.startDate,
      { message: 'endDate must not be before startDate', path: ['endDate'] },
    );
}

/** Weekly windows plus optional inclusive local dates, evaluated in the lock's time zone. */
export const scheduleSchema = scheduleWith((message) => z.iso.date(message));
export type Schedule = z.infer<typeof scheduleSchema>;

/**
 * A schedule a client sends: its dates within 1900–9999 (safe-input.ts). Answers and credential
 * sets use scheduleSchema, so a schedule stored before this rule still reads back.
 */
export const scheduleInputSchema = scheduleWith(dateInput);

/** What can be presented at a lock. */
export const CREDENTIAL_KINDS = ['code', 'rfid', 'fingerprint', 'key', 'qr', 'remote'] as const;
export const credentialKindSchema = z.enum(CREDENTIAL_KINDS);
export type CredentialKind = z.infer<typeof credentialKindSchema>;

/** Instants in a credential set: the server writes UTC ('Z'), an offset is accepted too. */
const instantSchema = z.iso.datetime({ offset: true, message: 'must be an ISO date-time' });

/**
 * Who a credential belongs to: a person of the portal, the company (portal-wide codes), a guest of
 * a device invite, or the lock itself (a code lock's master code, which admins use).
 */
export const CREDENTIAL_HOLDER_TYPES = ['person', 'company', 'guest', 'master'] as const;
export type CredentialHolderType = (typeof CREDENTIAL_HOLDER_TYPES)[number];

/** One credential on one lock, with everything the lock needs to decide without the server. */
export const credentialEntrySchema = z
  .object({
    credentialId: z.string().min(1),
    kind: credentialKindSchema,
    /** PIN, card UID, fingerprint template id, key id, QR token id; for 'remote' the userId. */
    secret: z.string().min(1),
    holderType: z.enum(CREDENTIAL_HOLDER_TYPES),
    /** The person holding it; null for company, guest and master credentials. */
    userId: z.string().min(1).nullable(),
    /** The person's role; admin-exempt lockouts let 'admin' through (master codes count as admin). */
    userRole: z.enum(PORTAL_ROLES).nullable(),
    userStatus: z.enum(['active', 'suspended']),
    /** null: at any time. */
    schedule: scheduleSchema.nullable(),
    validFrom: instantSchema.nullable(),
    validUntil: instantSchema.nullable(),
  })
  .refine((entry) => (entry.holderType === 'person') === (entry.userId !== null), {
    message: 'a person credential names its userId; other holders have none',
    path: ['userId'],
  });
export type CredentialEntry = z.infer<typeof credentialEntrySchema>;

/** A period during which the lock refuses everyone, admins too unless exempted. */
export const lockoutSchema = z.object({
  lockoutId: z.string().min(1),
  from: instantSchema,
  /** null: until lifted. */
  until: instantSchema.nullable(),
  exemptAdmins: z.boolean(),
});
export type Lockout = z.infer<typeof lockoutSchema>;

/** The `credentials` payload a lock receives (DESIGN §4). */
export const credentialSetSchema = z.object({
  deviceId: z.string().min(1),
  version: z.number().int().min(0),
  timeZone: timeZoneSchema,
  entries: z.array(credentialEntrySchema),
  lockouts: z.array(lockoutSchema),
  /**
   * The portal's Ed25519 public key (base64), with which the lock checks QR codes and carried
   * credential updates offline (phone-tokens.ts). Absent in sets built only for previews.
   */
  qrKey: z
    .string()
    .regex(/^[A-Za-z0-9+/]{43}=$/, 'must be a base64 32-byte key')
    .nullable()
    .optional(),
});
export type CredentialSet = z.infer<typeof credentialSetSchema>;

/** What someone presents at the lock. */
export const presentedCredentialSchema = z.object({
  kind: credentialKindSchema,
  secret: z.string().min(1),
});
export type PresentedCredential = z.infer<typeof presentedCredentialSchema>;

/** Why a lock refused, in the order evaluateAccess checks them after finding the credential. */
export const ACCESS_DENIAL_REASONS = [
  'unknown_credential',
  'suspended',
  'lockout',
  'not_yet_valid',
  'expired',
  'outside_schedule',
] as const;
export type AccessDenialReason = (typeof ACCESS_DENIAL_REASONS)[number];

export const accessDecisionSchema = z.discriminatedUnion('granted', [
  z.object({ granted: z.literal(true), credentialId: z.string(), userId: z.string().nullable() }),
  z.object({
    granted: z.literal(false),
    reason: z.enum(ACCESS_DENIAL_REASONS),
    credentialId: z.string().optional(),
    userId: z.string().nullable().optional(),
  }),
]);
export type AccessDecision = z.infer<typeof accessDecisionSchema>;

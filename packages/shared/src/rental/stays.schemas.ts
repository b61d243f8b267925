import { z } from 'zod';
import { emailSchema } from '../auth.schemas';
import { CREDENTIAL_REJECTIONS } from '../device-protocol';
import { CREDENTIAL_SYNC_STATES } from '../device-link.schemas';
import { listQuerySchema, pageSchema } from '../list-query';
import { dateInput, lineText, multilineText } from '../safe-input';
import { clockTimeSchema, phoneSchema } from './listings.schemas';
import { stayQuoteSchema } from './stay-price';

/**
 * Stays (issue 12): THE record of the rental flow. A stay is a listing, a guest (name, email,
 * phone), arrival and departure dates, a state and where it came from; per lock of the listing it
 * carries the guest's access and that access's sync state. Requests, approvals, calendars, iCal
 * imports and the rental center all read and write stays (docs/decisions.md "Rentals").
 */

/** requested → approved | declined; approved → cancelled. */
export const STAY_STATES = ['requested', 'approved', 'declined', 'cancelled'] as const;
export type StayState = (typeof STAY_STATES)[number];

/** A stay's state in words, the same on every screen and in search results. */
export const STAY_STATE_LABELS: Record<StayState, string> = {
  requested: 'Requested',
  approved: 'Approved',
  declined: 'Declined',
  cancelled: 'Cancelled',
};

/** Where a stay came from: the public request page, the owner, or an imported calendar feed. */
export const STAY_SOURCES = ['request', 'manual', 'ical'] as const;
export type StaySource = (typeof STAY_SOURCES)[number];

/**
 * Whether the guest's access is on the locks: none (not approved, or over), waiting (sent, not yet
 * confirmed by every lock), ready (every lock confirmed it: the guest's mail goes out), failed (a
 * lock refused it; the owner is alerted).
 */
export const STAY_ACCESS_STATES = ['none', 'waiting', 'ready', 'failed'] as const;
export type StayAccessState = (typeof STAY_ACCESS_STATES)[number];

/** One credential of a stay on one lock: the device link's sync state, or gone from the lock. */
export const stayLockAccessSchema = z.object({
  deviceId: z.string(),
  name: z.string(),
  state: z.enum([...CREDENTIAL_SYNC_STATES, 'removed']),
  reason: z.enum(CREDENTIAL_REJECTIONS).nullable(),
});
export type StayLockAccess = z.infer<typeof stayLockAccessSchema>;

/** The guest's access, or an access-list holder's (the cleaner) around this stay. */
export const stayAccessSchema = z.object({
  _id: z.string(),
  holder: z.enum(['guest', 'access_list']),
  name: z.string(),
  code: z.string(),
  validFrom: z.iso.datetime(),
  validUntil: z.iso.datetime(),
  /** Taken off the locks (cancelled, shortened away, or over). */
  removed: z.boolean(),
  locks: z.array(stayLockAccessSchema),
});
export type StayAccess = z.infer<typeof stayAccessSchema>;

/**
 * How full a lock's memory would be with this stay's access on it: every entry of its set against
 * its model's capacity (LOCK_MODELS), or, when the lock said how many codes it holds (a Z-Wave
 * node's user-code slots), its codes against that (`counts: 'codes'`).
 */
export const lockCapacitySchema = z.object({
  deviceId: z.string(),
  name: z.string(),
  capacity: z.number().int(),
  /** What `capacity`, `used` and `withStay` count: credential set entries, or codes. */
  counts: z.enum(['entries', 'codes']).default('entries'),
  /** Entries the lock's set holds now. */
  used: z.number().int(),
  /** Entries it would hold with this stay approved (finished stays' entries freed first). */
  withStay: z.number().int(),
  fits: z.boolean(),
});
export type LockCapacity = z.infer<typeof lockCapacitySchema>;

/** A stay (a request, later a booking) as the portal's admins see it. */
export const staySchema = z.object({
  _id: z.string(),
  listingId: z.string(),
  listingTitle: z.string(),
  guestName: z.string(),
  guestEmail: z.string(),
  guestPhone: z.string().nullable(),
  note: z.string(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  nights: z.number().int(),
  /** This stay's times (a late check-out moves checkOutTime), on the locks' clock. */
  checkInTime: z.string(),
  checkOutTime: z.string(),
  timeZone: z.string(),
  state: z.enum(STAY_STATES),
  source: z.enum(STAY_SOURCES),
  reason: z.string().nullable(),
  accessState: z.enum(STAY_ACCESS_STATES),
  /** The guest's window (the listing's initialTime and startTime applied). */
  accessFrom: z.iso.datetime(),
  accessUntil: z.iso.datetime(),
  access: z.array(stayAccessSchema),
  /** Requested stays: whether the locks can take the access (warn before approving). */
  capacity: z.array(lockCapacitySchema),
  /** Other approved stays of the listing these nights overlap. */
  conflicts: z.array(
    z.object({ _id: z.string(), guestName: z.string(), startDate: z.string(), endDate: z.string() }),
  ),
  /** The total quoted when the guest asked (nights × the price then); null: the listing had none. */
  quote: stayQuoteSchema.nullable(),
  /** The guest's landing page (/s?t=…), to pass on by hand; null until approved. */
  landingPath: z.string().nullable(),
  guestMailedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
  updatedAt: z.iso.datetime(),
});
export type Stay = z.infer<typeof staySchema>;

/** One row of a listing's requests and stays. */
export const staySummarySchema = staySchema.pick({
  _id: true,
  listingId: true,
  guestName: true,
  guestEmail: true,
  startDate: true,
  endDate: true,
  nights: true,
  state: true,
  source: true,
  accessState: true,
  createdAt: true,
});
export type StaySummary = z.infer<typeof staySummarySchema>;

export const staysQuerySchema = listQuerySchema({
  sortBy: ['startDate', 'createdAt', 'guestName'],
  filterBy: ['state', 'when'],
});
export type StaysQuery = z.output<typeof staysQuerySchema>;
export const staysPageSchema = pageSchema(staySummarySchema);
export type StaysPage = z.infer<typeof staysPageSchema>;

const dates = { startDate: dateInput(), endDate: dateInput() };
const times = { checkInTime: clockTimeSchema.optional(), checkOutTime: clockTimeSchema.optional() };

/**
 * POST device/{listingId}/request/{reqId}: what the owner does with a stay. Approve (possibly with
 * other dates or times), decline with a reason, cancel an approved stay, or change one (extend,
 * shorten, late check-out): each reaches the locks at once.
 */
export const stayActionSchema = z
  .discriminatedUnion('action', [
    z
      .object({ action: z.literal('approve'), ...dates, ...times })
      .partial({ startDate: true, endDate: true }),
    z.object({ action: z.literal('decline'), reason: lineText().min(1, 'is required').max(500) }),
    z.object({ action: z.literal('cancel'), reason: lineText().max(500).default('') }),
    z.object({ action: z.literal('change'), ...dates, ...times }),
    /** Mail the guest their access again (once the locks have it). */
    z.object({ action: z.literal('resend') }),
  ])
  .refine(
    (a) => !('startDate' in a && 'endDate' in a && a.startDate && a.endDate) || a.endDate! > a.startDate!,
    {
      message: 'must be after the arrival date',
      path: ['endDate'],
    },
  );
export type StayAction = z.input<typeof stayActionSchema>;

/** POST device/{listingId}/request (no sign-in): someone asks for a stay. */
export const stayRequestInputSchema = z
  .object({
    name: lineText().min(1, 'is required').max(80),
    email: emailSchema,
    phone: phoneSchema.default(''),
    note: multilineText().max(1000).default(''),
    ...dates,
  })
  .refine((r) => r.endDate > r.startDate, { message: 'must be after the arrival date', path: ['endDate'] });
export type StayRequestInput = z.input<typeof stayRequestInputSchema>;

/** The answer to a request: nothing about the listing's other guests. */
export const stayRequestReceiptSchema = z.object({
  _id: z.string(),
  state: z.enum(['requested', 'approved']),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  message: z.string(),
});
export type StayRequestReceipt = z.infer<typeof stayRequestReceiptSchema>;

/**
 * GET portal/device/{id}/stayGuests: the guests whose stays open a lock (its Guests tab), current and
 * coming, each with its stay's dates and the listing it is on. A stay's access needs no invite, so
 * the lock's guest invites never list them.
 */
export const lockStayGuestSchema = z.object({
  stayId: z.string(),
  listingId: z.string(),
  listingTitle: z.string(),
  guestName: z.string(),
  /** The stay's first and last night, 'YYYY-MM-DD' on the listing's clock. */
  startDate: z.string(),
  endDate: z.string(),
  /** When the guest's code and QR code open the lock (check-in to check-out). */
  validFrom: z.iso.datetime(),
  validUntil: z.iso.datetime(),
  /** What the guest holds for this lock: a code on a keypad, and the QR code from their stay link. */
  credentials: z.array(z.enum(['code', 'qr'])),
});
export type LockStayGuest = z.infer<typeof lockStayGuestSchema>;

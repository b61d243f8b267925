import { z } from 'zod';
import { listQuerySchema, pageSchema } from '../list-query';
import { dateInput, idSchema, integerParam, lineText } from '../safe-input';
import { STAY_ACCESS_STATES, STAY_SOURCES } from './stays.schemas';

/**
 * Calendars and iCal feeds (issue 12, part R2; docs/decisions.md "Rentals: calendars, iCal, reviews").
 * `device/{id}/calendar` names a listing, as the other share-lock calls about stays do: a listing's
 * bookings (approved stays), its pending requests, its blocks (nights the owner closed, and nights
 * an imported feed marks as not available) and the access windows derived from the bookings.
 */

/** The longest stretch one calendar read covers (a year and a bit). */
export const CALENDAR_MAX_DAYS = 400;

const dateRange = <T extends { startDate: string; endDate: string }>(value: T) =>
  value.endDate > value.startDate;
const endAfterStart = { message: 'must be after the first night', path: ['endDate'] };

/** GET device/{listingId}/calendar: the nights from `from` up to `to` (excluded); default: three months. */
export const calendarQuerySchema = z
  .object({ from: dateInput().optional(), to: dateInput().optional() })
  .refine((q) => !q.from || !q.to || q.to > q.from, { message: 'must be after from', path: ['to'] })
  .refine(
    (q) =>
      !q.from ||
      !q.to ||
      Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`) <= CALENDAR_MAX_DAYS * 86_400_000,
    { message: `may cover at most ${CALENDAR_MAX_DAYS} days`, path: ['to'] },
  );
export type CalendarQuery = z.infer<typeof calendarQuerySchema>;

/** A booking (approved stay) or a pending request on a listing's calendar. */
export const calendarBookingSchema = z.object({
  _id: z.string(),
  guestName: z.string(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  nights: z.number().int(),
  state: z.enum(['requested', 'approved']),
  source: z.enum(STAY_SOURCES),
  /** The imported feed it came from (source `ical`); null otherwise or when the feed was removed. */
  feedName: z.string().nullable(),
  accessState: z.enum(STAY_ACCESS_STATES),
  checkInTime: z.string(),
  checkOutTime: z.string(),
  /**
   * Other bookings and owner blocks whose nights this one overlaps. Requests never overlap a booking
   * (refused on request); an imported reservation that does is kept and flagged here.
   */
  overlaps: z.array(z.string()),
});
export type CalendarBooking = z.infer<typeof calendarBookingSchema>;

export const BLOCK_SOURCES = ['owner', 'ical'] as const;

/** Nights closed to requests: by the owner, or marked not available by an imported feed. */
export const calendarBlockSchema = z.object({
  _id: z.string(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  note: z.string(),
  source: z.enum(BLOCK_SOURCES),
  feedName: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type CalendarBlock = z.infer<typeof calendarBlockSchema>;

/** An access window derived from a booking: the guest's, or an access-list holder's around it. */
export const calendarAccessWindowSchema = z.object({
  stayId: z.string(),
  holder: z.enum(['guest', 'access_list']),
  name: z.string(),
  from: z.iso.datetime(),
  until: z.iso.datetime(),
});
export type CalendarAccessWindow = z.infer<typeof calendarAccessWindowSchema>;

export const listingCalendarSchema = z.object({
  listingId: z.string(),
  title: z.string(),
  timeZone: z.string(),
  /** Today on the listing's calendar. */
  today: z.iso.date(),
  from: z.iso.date(),
  to: z.iso.date(),
  bookings: z.array(calendarBookingSchema),
  blocks: z.array(calendarBlockSchema),
  windows: z.array(calendarAccessWindowSchema),
});
export type ListingCalendar = z.infer<typeof listingCalendarSchema>;

/** POST device/{listingId}/calendar: close nights (a block) or open them again. */
export const calendarActionSchema = z.discriminatedUnion('action', [
  z
    .object({
      action: z.literal('block'),
      startDate: dateInput(),
      endDate: dateInput(),
      note: lineText().max(200).default(''),
    })
    .refine(dateRange, endAfterStart),
  z.object({ action: z.literal('unblock'), blockId: idSchema }),
]);
export type CalendarAction = z.input<typeof calendarActionSchema>;

export const calendarChangeSchema = z.object({
  action: z.enum(['block', 'unblock']),
  block: calendarBlockSchema,
});
export type CalendarChange = z.infer<typeof calendarChangeSchema>;

/** GET calendar/upcoming: the portal's next arrivals and departures, one row each. */
export const upcomingMovementSchema = z.object({
  /** `${stayId}:arrival` or `${stayId}:departure`. */
  _id: z.string(),
  kind: z.enum(['arrival', 'departure']),
  date: z.iso.date(),
  /** Check-in time for an arrival, check-out time for a departure, on the listing's clock. */
  time: z.string(),
  timeZone: z.string(),
  stayId: z.string(),
  listingId: z.string(),
  listingTitle: z.string(),
  guestName: z.string(),
  source: z.enum(STAY_SOURCES),
  accessState: z.enum(STAY_ACCESS_STATES),
});
export type UpcomingMovement = z.infer<typeof upcomingMovementSchema>;

export const upcomingQuerySchema = listQuerySchema({
  sortBy: ['date', 'guestName', 'listingTitle'],
  filterBy: ['kind', 'listingId'],
}).safeExtend({
  /** How many days ahead, from today on each listing's calendar (0: today only). */
  days: integerParam({ min: 0, max: 90 }).default(14),
});
export type UpcomingQuery = z.output<typeof upcomingQuerySchema>;
export const upcomingPageSchema = pageSchema(upcomingMovementSchema);
export type UpcomingPage = z.infer<typeof upcomingPageSchema>;

// iCal feeds

/**
 * How an imported feed's events are read. `auto`: an event whose summary says the nights are not
 * available (Airbnb's "Not available", Vrbo's "Blocked", "Closed") blocks them; any other event is
 * a reservation, whose guest gets a code. `reservations` / `blocks`: every event is one.
 */
export const ICAL_FEED_MODES = ['auto', 'reservations', 'blocks'] as const;
export type IcalFeedMode = (typeof ICAL_FEED_MODES)[number];

/** A calendar feed URL another platform publishes: http(s) only, no credentials in it. */
export const feedUrlSchema = lineText()
  .min(1, 'is required')
  .max(2000, 'is too long')
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
    } catch {
      return false;
    }
  }, 'must be an http:// or https:// address without a user name or password');

export const icalFeedInputSchema = z.object({
  name: lineText().min(1, 'is required').max(60),
  url: feedUrlSchema,
  mode: z.enum(ICAL_FEED_MODES).default('auto'),
});
export type IcalFeedInput = z.input<typeof icalFeedInputSchema>;

/** What one read of an imported feed did (kept on the feed: reads run in the background). */
export const icalSyncOutcomeSchema = z.object({
  at: z.iso.datetime(),
  /** False when the feed could not be read or used: the feed's `lastError` says why, nothing changed. */
  ok: z.boolean(),
  /** The platform answered 304: nothing new since the last read. */
  notModified: z.boolean(),
  added: z.number().int(),
  changed: z.number().int(),
  cancelled: z.number().int(),
  /** New or changed reservations that overlap another booking or a block of the owner. */
  flagged: z.number().int(),
  blocks: z.number().int(),
});
export type IcalSyncOutcome = z.infer<typeof icalSyncOutcomeSchema>;

/** An imported feed and how its last syncs went. */
export const icalFeedSchema = z.object({
  _id: z.string(),
  listingId: z.string(),
  name: z.string(),
  url: z.string(),
  mode: z.enum(ICAL_FEED_MODES),
  /** Events the last good read had (an empty read after some is an error, never "no bookings"). */
  events: z.number().int(),
  /** Stays it holds that have not ended. */
  stays: z.number().int(),
  lastFetchAt: z.iso.datetime().nullable(),
  lastSuccessAt: z.iso.datetime().nullable(),
  /** The last fetch's error; null once a fetch succeeds. */
  lastError: z.string().nullable(),
  lastErrorAt: z.iso.datetime().nullable(),
  /** What the last good read left to the owner (overlaps, a lock that was full). */
  lastWarning: z.string().nullable(),
  nextFetchAt: z.iso.datetime().nullable(),
  /** A read is queued ("sync now") or under way; `lastResult` and the fields above change when it ends. */
  syncing: z.boolean(),
  /** What the last read did; null before the first. */
  lastResult: icalSyncOutcomeSchema.nullable(),
  createdAt: z.iso.datetime(),
});
export type IcalFeed = z.infer<typeof icalFeedSchema>;

/** GET listing/{id}/ical: the export feed's address and the imported feeds. */
export const listingIcalSchema = z.object({
  /** The private export feed (absolute URL) to paste into Airbnb, Vrbo or Booking.com. */
  exportUrl: z.string(),
  exportRotatedAt: z.iso.datetime().nullable(),
  feeds: z.array(icalFeedSchema),
});
export type ListingIcal = z.infer<typeof listingIcalSchema>;

/** POST listing/{id}/ical/feed/{feedId}/sync: read the feed now (queued: answered 202 with the feed). */
export const icalSyncInputSchema = z.object({
  /**
   * Apply a read even though it is empty where the feed had events before (every reservation on
   * the platform really was cancelled). Without it such a read is an error and nothing changes.
   */
  acceptEmpty: z.boolean().default(false),
});
export type IcalSyncInput = z.input<typeof icalSyncInputSchema>;

/** One read as the import job ran it: its outcome and the feed after it. */
export const icalSyncResultSchema = icalSyncOutcomeSchema.omit({ at: true }).extend({ feed: icalFeedSchema });
export type IcalSyncResult = z.infer<typeof icalSyncResultSchema>;

export const icalFeedsPageSchema = pageSchema(icalFeedSchema);

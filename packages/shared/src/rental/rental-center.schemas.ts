import { z } from 'zod';
import { listQuerySchema, pageSchema } from '../list-query';
import { STAY_ACCESS_STATES, STAY_SOURCES, STAY_STATES, stayLockAccessSchema } from './stays.schemas';

/**
 * The rental center (issue 12, part R2; `/app/rentalcenter`): for any signed-in person, what they
 * host in the portal they act in (an admin: every listing; a member: the listings they look after,
 * listingUser) and the stays they keep as a guest. No codes: those are on the stay's own screen.
 */

/** A stay as the rental center lists it: its access state on each lock, without the code. */
export const rentalCenterStaySchema = z.object({
  _id: z.string(),
  listingId: z.string(),
  listingTitle: z.string(),
  guestName: z.string(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  nights: z.number().int(),
  checkInTime: z.string(),
  checkOutTime: z.string(),
  timeZone: z.string(),
  state: z.enum(STAY_STATES),
  source: z.enum(STAY_SOURCES),
  feedName: z.string().nullable(),
  accessState: z.enum(STAY_ACCESS_STATES),
  /** The guest's access on each lock of the listing (the worse of its code and QR entry). */
  locks: z.array(stayLockAccessSchema),
  /** It overlaps another booking of the listing (an imported double booking). */
  overlaps: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type RentalCenterStay = z.infer<typeof rentalCenterStaySchema>;

export const rentalCenterFeedSchema = z.object({
  _id: z.string(),
  name: z.string(),
  lastSuccessAt: z.iso.datetime().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.iso.datetime().nullable(),
  lastWarning: z.string().nullable(),
});

export const rentalCenterListingSchema = z.object({
  _id: z.string(),
  title: z.string(),
  timeZone: z.string(),
  /** Today on the listing's calendar (listings in other zones may be a day apart). */
  today: z.iso.date(),
  published: z.boolean(),
  pendingRequests: z.number().int(),
  /** Approved stays from today on. */
  upcomingStays: z.number().int(),
  nextArrival: z.iso.date().nullable(),
  feeds: z.array(rentalCenterFeedSchema),
});
export type RentalCenterListing = z.infer<typeof rentalCenterListingSchema>;

/** A stay the signed-in person keeps as a guest (saved to their account from the guest link). */
export const guestStaySchema = z.object({
  _id: z.string(),
  listingTitle: z.string(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  checkInTime: z.string(),
  checkOutTime: z.string(),
  timeZone: z.string(),
  state: z.enum(STAY_STATES),
  accessState: z.enum(STAY_ACCESS_STATES),
  /** The stay's landing page (/s?t=…): arrival instructions, code and QR code. */
  landingPath: z.string().nullable(),
  /** The review page once the stay is over (while reviews are taken), else null. */
  reviewPath: z.string().nullable(),
  reviewed: z.boolean(),
});
export type GuestStay = z.infer<typeof guestStaySchema>;

/** GET rentalcenter. */
export const rentalCenterSchema = z.object({
  /** The portal whose listings are shown, and whether the person administers all of them there. */
  hosting: z
    .object({ portalId: z.string(), portalName: z.string(), scope: z.enum(['admin', 'listingUser']) })
    .nullable(),
  listings: z.array(rentalCenterListingSchema),
  arrivalsToday: z.array(rentalCenterStaySchema),
  departuresToday: z.array(rentalCenterStaySchema),
  /** Approved stays under way today (arrived before today, leaving after it). */
  stayingNow: z.number().int(),
  pendingRequests: z.object({ total: z.number().int(), items: z.array(rentalCenterStaySchema) }),
  guestStays: z.array(guestStaySchema),
});
export type RentalCenter = z.infer<typeof rentalCenterSchema>;

/** GET rentalcenter/stays: the stays of every listing in scope, paged, sorted and filtered. */
export const rentalCenterStaysQuerySchema = listQuerySchema({
  sortBy: ['startDate', 'endDate', 'guestName', 'createdAt'],
  filterBy: ['listingId', 'state', 'when', 'source', 'accessState'],
});
export type RentalCenterStaysQuery = z.output<typeof rentalCenterStaysQuerySchema>;
export const rentalCenterStaysPageSchema = pageSchema(rentalCenterStaySchema);
export type RentalCenterStaysPage = z.infer<typeof rentalCenterStaysPageSchema>;

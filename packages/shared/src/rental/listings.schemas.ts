import { z } from 'zod';
import { emailSchema } from '../auth.schemas';
import { listQuerySchema, pageSchema } from '../list-query';
import { lockModelSchema } from '../devices.schemas';
import { lockCapabilitiesSchema } from '../device-protocol';
import { idSchema, lineText, multilineText } from '../safe-input';
import { publicReviewsSchema } from './reviews.schemas';
import { LISTING_CURRENCIES, nightlyPriceSchema, stayPriceSchema } from './stay-price';

/**
 * Listings (issue 12): a portal lists one or more of its locks (a flat's door and the building's
 * entrance) for people to request stays on a public page. Collections of the brief: listing,
 * listingCategory, listingAccessList, listingUser, userImages.
 */

/** 'HH:MM' on a 24-hour clock, the lock's wall clock. */
export const clockTimeSchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM between 00:00 and 23:59');

/** An image of a listing or of a lock's arrival instructions, resized and re-encoded by the server. */
export const rentalImageSchema = z.object({
  _id: z.string(),
  alt: z.string(),
  position: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  /** The large version (at most 1600 px wide), for the carousel. */
  url: z.string(),
  /** At most 480 px wide, for lists and thumbnails. */
  thumbUrl: z.string(),
});
export type RentalImage = z.infer<typeof rentalImageSchema>;

/** POST listing/{id}/image/{imageId}: alt text and order. */
export const rentalImageUpdateSchema = z
  .object({
    alt: lineText().max(200),
    position: z.number().int().min(0).max(99),
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, 'alt or position is required');
export type RentalImageUpdate = z.infer<typeof rentalImageUpdateSchema>;

/** The upload's query: its alt text (the bytes are the body). */
export const rentalImageUploadQuerySchema = z.object({ alt: lineText().max(200).default('') });

export const listingCategorySchema = z.object({
  _id: z.string(),
  name: z.string(),
  /** Listings in it (deleted ones not counted). */
  listings: z.number().int(),
});
export type ListingCategory = z.infer<typeof listingCategorySchema>;

export const listingCategoryInputSchema = z.object({ name: lineText().min(1, 'is required').max(60) });
export type ListingCategoryInput = z.infer<typeof listingCategoryInputSchema>;

export const ACCESS_LIST_ANCHORS = ['check_in', 'check_out'] as const;

const offsetMinutes = z
  .number()
  .int()
  .min(-2880, 'must be at most 2 days before')
  .max(2880, 'must be at most 2 days after');

/**
 * Someone else who gets the listing's locks around every stay (listingAccessList): a code of their
 * own per stay, from `startOffset` to `endOffset` minutes after the stay's check-in or check-out.
 */
export const accessListEntrySchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  anchor: z.enum(ACCESS_LIST_ANCHORS),
  startOffset: z.number().int(),
  endOffset: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type AccessListEntry = z.infer<typeof accessListEntrySchema>;

export const phoneSchema = lineText()
  .max(32)
  .regex(/^(\+?[\d ()-]{6,32})?$/, 'must be a phone number such as +49 30 1234567');

export const accessListEntryInputSchema = z
  .object({
    name: lineText().min(1, 'is required').max(80),
    email: z.union([emailSchema, z.literal('')]).default(''),
    phone: phoneSchema.default(''),
    anchor: z.enum(ACCESS_LIST_ANCHORS).default('check_out'),
    startOffset: offsetMinutes.default(0),
    endOffset: offsetMinutes.default(180),
  })
  .refine((entry) => entry.endOffset > entry.startOffset, {
    message: 'must be after the start',
    path: ['endOffset'],
  });
export type AccessListEntryInput = z.input<typeof accessListEntryInputSchema>;

/** A person of the portal who looks after a listing: told of its requests by mail. */
export const listingUserSchema = z.object({ _id: z.string(), name: z.string(), email: z.string() });
export type ListingUser = z.infer<typeof listingUserSchema>;

export const listingLockSchema = z.object({
  _id: z.string(),
  name: z.string(),
  model: lockModelSchema,
  timeZone: z.string(),
  /** What the lock said it holds (a Z-Wave node's code slots); null: its model's figure. */
  capabilities: lockCapabilitiesSchema.nullable().optional(),
});

/** A listing as its portal's admins see it. */
export const listingSchema = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.object({ _id: z.string(), name: z.string() }).nullable(),
  address: z.string(),
  /** Its locks' time zone (they share one); null while it has none. */
  timeZone: z.string().nullable(),
  locks: z.array(listingLockSchema),
  images: z.array(rentalImageSchema),
  houseRules: z.string(),
  checkInTime: z.string(),
  checkOutTime: z.string(),
  /** Share-lock initialTime: minutes before check-in that a guest's access starts. */
  initialTime: z.number().int(),
  /** Share-lock startTime: the earliest time of day on the arrival date access starts; null: none. */
  startTime: z.string().nullable(),
  minNights: z.number().int(),
  maxNights: z.number().int(),
  /** Requests for free dates are approved at once. */
  autoAccept: z.boolean(),
  /** Shown on its public request page (share-lock sharing enabled). */
  published: z.boolean(),
  /** Price per night in minor units of `currency`; null: "Price on request" (stay-price.ts). */
  nightlyPrice: z.number().int().nullable(),
  currency: z.enum(LISTING_CURRENCIES),
  accessList: z.array(accessListEntrySchema),
  users: z.array(listingUserSchema),
  pendingRequests: z.number().int(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Listing = z.infer<typeof listingSchema>;

/** POST listing/new and POST listing/{id}. */
export const listingInputSchema = z
  .object({
    title: lineText().min(1, 'is required').max(120),
    description: multilineText().max(5000).default(''),
    categoryId: idSchema.nullable().default(null),
    address: lineText().max(300).default(''),
    deviceIds: z.array(idSchema).min(1, 'needs at least one lock').max(20, 'may open at most 20 locks'),
    houseRules: multilineText().max(3000).default(''),
    checkInTime: clockTimeSchema.default('15:00'),
    checkOutTime: clockTimeSchema.default('11:00'),
    initialTime: z.number().int().min(0).max(1440, 'must be at most 1440 minutes (a day)').default(0),
    startTime: clockTimeSchema.nullable().default(null),
    minNights: z.number().int().min(1, 'must be at least 1').max(365).default(1),
    maxNights: z.number().int().min(1, 'must be at least 1').max(365).default(30),
    autoAccept: z.boolean().default(false),
    published: z.boolean().default(false),
    nightlyPrice: nightlyPriceSchema.nullable().default(null),
    currency: z.enum(LISTING_CURRENCIES).default('EUR'),
  })
  .refine((listing) => listing.maxNights >= listing.minNights, {
    message: 'must not be below the minimum stay',
    path: ['maxNights'],
  })
  .refine((listing) => listing.startTime === null || listing.startTime <= listing.checkInTime, {
    message: 'must not be after the check-in time',
    path: ['startTime'],
  })
  .refine((listing) => new Set(listing.deviceIds).size === listing.deviceIds.length, {
    message: 'must not name a lock twice',
    path: ['deviceIds'],
  });
export type ListingInput = z.input<typeof listingInputSchema>;

/** One row of GET listing. */
export const listingSummarySchema = z.object({
  _id: z.string(),
  title: z.string(),
  category: z.object({ _id: z.string(), name: z.string() }).nullable(),
  published: z.boolean(),
  locks: z.number().int(),
  cover: rentalImageSchema.nullable(),
  pendingRequests: z.number().int(),
  /** The next approved arrival from today on (the listing's calendar). */
  nextArrival: z.iso.date().nullable(),
  createdAt: z.iso.datetime(),
});
export type ListingSummary = z.infer<typeof listingSummarySchema>;

export const listingsQuerySchema = listQuerySchema({
  sortBy: ['title', 'createdAt'],
  filterBy: ['published', 'categoryId'],
});
export type ListingsQuery = z.output<typeof listingsQuerySchema>;
export const listingsPageSchema = pageSchema(listingSummarySchema);
export type ListingsPage = z.infer<typeof listingsPageSchema>;

/** GET listing/{id}/public (no sign-in): what the request page shows. No address, no guests. */
export const publicListingSchema = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string().nullable(),
  houseRules: z.string(),
  checkInTime: z.string(),
  checkOutTime: z.string(),
  minNights: z.number().int(),
  maxNights: z.number().int(),
  timeZone: z.string(),
  /** Today on the listing's calendar: the first date a stay may start. */
  today: z.iso.date(),
  images: z.array(rentalImageSchema),
  /** Nights already taken (approved stays and blocked nights), from today on: only dates. */
  taken: z.array(z.object({ startDate: z.iso.date(), endDate: z.iso.date() })),
  autoAccept: z.boolean(),
  /** The price per night; null: "Price on request". */
  price: stayPriceSchema.nullable(),
  /** Published reviews of past stays (R2): a first name and a month, never a date or a code. */
  reviews: publicReviewsSchema,
});
export type PublicListing = z.infer<typeof publicListingSchema>;

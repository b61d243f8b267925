import { z } from 'zod';
import { listQuerySchema, pageSchema } from '../list-query';
import { lineText, multilineText } from '../safe-input';

/**
 * Reviews (issue 12, part R2; the brief's `review` screen and `reviews` collection). After
 * check-out the guest of a stay may review it once, from the link in the mail sent after their
 * stay or from their account; the listing's public page shows published reviews; the owner may
 * answer a review or hide an abusive one (and show it again). Every step is in the change log.
 */

export const REVIEW_STATES = ['published', 'hidden'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** How long after check-out a stay may be reviewed. */
export const REVIEW_WINDOW_DAYS = 30;

/** A review as the listing's admins see it. */
export const reviewSchema = z.object({
  _id: z.string(),
  listingId: z.string(),
  stayId: z.string(),
  /** As the public page shows it: the guest's first name. */
  guestName: z.string(),
  rating: z.number().int().min(1).max(5),
  text: z.string(),
  state: z.enum(REVIEW_STATES),
  hiddenReason: z.string().nullable(),
  answer: z.string().nullable(),
  answeredAt: z.iso.datetime().nullable(),
  stayStartDate: z.iso.date(),
  stayEndDate: z.iso.date(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type Review = z.infer<typeof reviewSchema>;

export const reviewsQuerySchema = listQuerySchema({
  sortBy: ['createdAt', 'rating'],
  filterBy: ['state', 'rating'],
});
export type ReviewsQuery = z.output<typeof reviewsQuerySchema>;
export const reviewsPageSchema = pageSchema(reviewSchema);
export type ReviewsPage = z.infer<typeof reviewsPageSchema>;

/** POST listing/{id}/review/{reviewId}: the owner answers, hides an abusive review, or shows it again. */
export const reviewModerationSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('answer'),
    /** An empty answer takes the answer back. */
    answer: multilineText().max(2000),
  }),
  z.object({ action: z.literal('hide'), reason: lineText().min(1, 'is required').max(300) }),
  z.object({ action: z.literal('publish') }),
]);
export type ReviewModeration = z.input<typeof reviewModerationSchema>;

/** A published review on the listing's public page: a first name, the month of the stay, no dates. */
export const publicReviewSchema = z.object({
  _id: z.string(),
  guestName: z.string(),
  rating: z.number().int(),
  text: z.string(),
  answer: z.string().nullable(),
  /** 'YYYY-MM' of the stay's arrival. */
  stayMonth: z.string(),
  createdAt: z.iso.datetime(),
});
export type PublicReview = z.infer<typeof publicReviewSchema>;

export const publicReviewsSchema = z.object({
  count: z.number().int(),
  /** The mean rating of the published reviews, one decimal; null without any. */
  average: z.number().nullable(),
  /** The newest published reviews. */
  items: z.array(publicReviewSchema),
});
export type PublicReviews = z.infer<typeof publicReviewsSchema>;

/** GET review/{token} (no sign-in: the link from the mail after the stay, or the guest's account). */
export const reviewInvitationSchema = z.object({
  listingTitle: z.string(),
  guestName: z.string(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  /** Whether a review may be written now; `reason` says why not. */
  open: z.boolean(),
  reason: z.string().nullable(),
  /** The last day a review is taken, on the listing's calendar. */
  closesOn: z.iso.date(),
  /** The guest's review, once written. */
  review: z
    .object({
      rating: z.number().int(),
      text: z.string(),
      state: z.enum(REVIEW_STATES),
      answer: z.string().nullable(),
      createdAt: z.iso.datetime(),
    })
    .nullable(),
  /** The listing's public page, when it is published. */
  listingPath: z.string().nullable(),
});
export type ReviewInvitation = z.infer<typeof reviewInvitationSchema>;

/** POST review/{token}: the guest's review. */
export const reviewInputSchema = z.object({
  rating: z
    .number({ error: 'is required' })
    .int('must be a whole number of stars')
    .min(1, 'must be 1 to 5 stars')
    .max(5, 'must be 1 to 5 stars'),
  text: multilineText().max(2000).default(''),
});
export type ReviewInput = z.input<typeof reviewInputSchema>;

/** A stay of the signed-in person that may be reviewed now (the brief's `review` screen, /app/review). */
export const reviewableStaySchema = z.object({
  stayId: z.string(),
  listingTitle: z.string(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  /** The last day a review is taken, on the listing's calendar. */
  closesOn: z.iso.date(),
  /** The review page (/review?t=…), where the review is written. */
  reviewPath: z.string(),
});
export type ReviewableStay = z.infer<typeof reviewableStaySchema>;

/** A review the signed-in person wrote as a guest, with the host's answer. */
export const ownReviewSchema = z.object({
  _id: z.string(),
  listingTitle: z.string(),
  rating: z.number().int(),
  text: z.string(),
  state: z.enum(REVIEW_STATES),
  answer: z.string().nullable(),
  stayStartDate: z.iso.date(),
  stayEndDate: z.iso.date(),
  createdAt: z.iso.datetime(),
});
export type OwnReview = z.infer<typeof ownReviewSchema>;

/** GET reviews/mine: the signed-in person's reviews, as a guest and as a host. */
export const myReviewsSchema = z.object({
  /** Ended stays they kept as a guest that are not reviewed yet, while reviews are taken. */
  toReview: z.array(reviewableStaySchema),
  /** The reviews they wrote, newest first. */
  written: z.array(ownReviewSchema),
  /**
   * The reviews of the listings of the portal they act in, newest first, when they administer it
   * (null otherwise); the answer and hiding are on the listing's page.
   */
  hosting: z
    .object({
      portalName: z.string(),
      total: z.number().int(),
      items: z.array(reviewSchema.extend({ listingTitle: z.string() })),
    })
    .nullable(),
});
export type MyReviews = z.infer<typeof myReviewsSchema>;

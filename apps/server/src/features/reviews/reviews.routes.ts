import {
  idSchema,
  myReviewsSchema,
  reviewInputSchema,
  reviewInvitationSchema,
  reviewModerationSchema,
  reviewSchema,
  reviewsPageSchema,
  reviewsQuerySchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, routesOfFeature, signedIn } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { getMyReviews } from './my-reviews';
import { getReviewInvitation, listReviews, moderateReview, submitReview } from './reviews.service';

const id = idSchema;
const tags = ['reviews'];
const admin = { access: access.portalAdmin };
/** A review link: `V1.{stayId}.{version}.{mac}` (share-tokens.ts). */
const tokenSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._-]+$/, 'is not a review link');

/** Reviews (issue 12, R2; the brief's `review` screen and `reviews` collection). */
export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'reviews');
  app.get(
    '/review/:token',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary:
          "A guest's review page: the stay, whether it may be reviewed now, and the review once written",
        params: z.object({ token: tokenSchema }),
        response: { 200: reviewInvitationSchema, ...errorResponses },
      },
    },
    async (request) => getReviewInvitation(app.db, app.rental.deps, request.params.token),
  );

  app.post(
    '/review/:token',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'Review a stay (the guest, once, from check-out for 30 days); published at once',
        description:
          'The link comes in the mail after check-out and in the guest’s rental center. 409 before check-out, after the window, or when already reviewed; limited per address (429).',
        params: z.object({ token: tokenSchema }),
        body: reviewInputSchema,
        response: { 201: reviewInvitationSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await app.rental.countRequest(request.ip);
      const answer = await submitReview(
        app.db,
        app.rental.deps,
        request.params.token,
        request.body,
        request.ip,
      );
      return reply.status(201).send(answer);
    },
  );

  app.get(
    '/reviews/mine',
    {
      config: { access: access.account },
      schema: {
        tags,
        summary:
          "The signed-in person's reviews: stays they may review now, the reviews they wrote, and for a portal admin the reviews of its listings",
        description:
          'Stays and reviews are the person’s own (as a guest, in any portal); `hosting` is the acting portal’s listings’ newest reviews when the person administers it, else null.',
        response: { 200: myReviewsSchema, ...errorResponses },
      },
    },
    async (request) => getMyReviews(app.db, app.rental.deps, signedIn(request)),
  );

  app.get(
    '/listing/:id/review',
    {
      config: { ...admin, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary: "A page of a listing's reviews (filter state: published, hidden; or rating 1–5)",
        params: z.object({ id }),
        querystring: reviewsQuerySchema,
        response: { 200: reviewsPageSchema, ...errorResponses },
      },
    },
    async (request) => listReviews(app.db, actingPortal(request).portal.id, request.params.id, request.query),
  );

  app.post(
    '/listing/:id/review/:reviewId',
    {
      config: {
        ...admin,
        example: { body: { action: 'answer', answer: 'Thank you' } },
        ids: { id: 'listingId' },
      },
      schema: {
        tags,
        summary:
          'Answer a review (an empty answer takes it back), hide an abusive one with a reason, or show it again',
        params: z.object({ id, reviewId: id }),
        body: reviewModerationSchema,
        response: { 200: reviewSchema, ...errorResponses },
      },
    },
    async (request) =>
      moderateReview(
        app.db,
        changeContext(request),
        request.params.id,
        request.params.reviewId,
        request.body,
      ),
  );
};

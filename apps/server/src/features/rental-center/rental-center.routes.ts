import {
  rentalCenterSchema,
  rentalCenterStaysPageSchema,
  rentalCenterStaysQuerySchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, signedIn, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { getRentalCenter, getRentalCenterStays } from './rental-center.service';

const tags = ['rental center'];

/**
 * The rental center (issue 12, R2): any signed-in person. What it shows is scoped by who asks: the
 * listings they administer or look after in the portal they act in, and their own stays as a guest.
 */
export const rentalCenterRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'rental-center');
  app.get(
    '/rentalcenter',
    {
      config: { access: access.account },
      schema: {
        tags,
        summary:
          "Today's arrivals and departures, pending requests, each listing's calendar feeds, and the person's own stays as a guest",
        description:
          'An admin sees every listing of the portal they act in, a member the listings they look after (listingUser); each stay with its access state on each lock. No codes.',
        response: { 200: rentalCenterSchema, ...errorResponses },
      },
    },
    async (request) => getRentalCenter(app.db, app.rental.deps, signedIn(request)),
  );

  app.get(
    '/rentalcenter/stays',
    {
      config: { access: access.account },
      schema: {
        tags,
        summary:
          'A page of the stays of every listing the person hosts (filter listingId, state, when: upcoming/current/past, source, accessState)',
        querystring: rentalCenterStaysQuerySchema,
        response: { 200: rentalCenterStaysPageSchema, ...errorResponses },
      },
    },
    async (request) => getRentalCenterStays(app.db, signedIn(request), request.query),
  );
};

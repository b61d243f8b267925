import { idSchema, publicListingSchema } from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { getPublicListing } from './public-listing';

/** The public request page's data: what a stranger may see of a published listing. */
export const publicListingRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'public-listing');
  app.get(
    '/listing/:id/public',
    {
      config: { access: access.public, ids: { id: 'listingId' } },
      schema: {
        tags: ['stays'],
        summary:
          "A published listing's request page: description, images, nights taken (no names, no address)",
        params: z.object({ id: idSchema }),
        response: { 200: publicListingSchema, ...errorResponses },
      },
    },
    async (request) => getPublicListing(app.db, request.params.id),
  );
};

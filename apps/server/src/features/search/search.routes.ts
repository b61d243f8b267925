import { searchAnswerSchema, searchQuerySchema } from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, actingPortal, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { searchPortal } from './search.service';

/**
 * The operator's global search (issue 19, item 7). Admins only: a basic user's own things are their
 * few locks and codes, on screens of their own, and the search would otherwise have to hide most
 * of each kind from them (docs/decisions.md "Global search").
 */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'search');
  app.get(
    '/portal/search',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags: ['search'],
        summary: "Find the portal's people, locks, cards, listings, stays and bills by a few characters",
        querystring: searchQuerySchema,
        response: { 200: searchAnswerSchema, ...errorResponses },
      },
    },
    async (request) => searchPortal(app.db, actingPortal(request).portal.id, request.query.q),
  );
};

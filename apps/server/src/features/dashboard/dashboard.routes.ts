import { portalDashboardSchema, waitingRequestsSchema, zoneScopedQuerySchema } from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, actingPortal, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { getPortalDashboard } from './dashboard.service';
import { getWaitingRequests } from './waiting-requests';

/** The portal's dashboard (brief §7 Portal). */
export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'dashboard');
  app.get(
    '/portal/dashboard',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags: ['portal'],
        summary: 'The portal with its member counts (the lock counts and lists of one zone with zoneId)',
        querystring: zoneScopedQuerySchema,
        response: { 200: portalDashboardSchema, ...errorResponses },
      },
    },
    async (request) => getPortalDashboard(app.db, actingPortal(request), request.query),
  );

  app.get(
    '/portal/requests/waiting',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags: ['portal'],
        summary: "Stay requests waiting for the host's answer, oldest first (the first five and the count)",
        response: { 200: waitingRequestsSchema, ...errorResponses },
      },
    },
    async (request) => getWaitingRequests(app.db, actingPortal(request).portal.id),
  );
};

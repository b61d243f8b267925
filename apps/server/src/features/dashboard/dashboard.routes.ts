import { portalDashboardSchema } from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, actingPortal, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { getPortalDashboard } from './dashboard.service';

/** The portal's dashboard (brief §7 Portal). */
export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'dashboard');
  app.get(
    '/portal/dashboard',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags: ['portal'],
        summary: 'The portal with its member counts',
        response: { 200: portalDashboardSchema, ...errorResponses },
      },
    },
    async (request) => getPortalDashboard(app.db, actingPortal(request)),
  );
};

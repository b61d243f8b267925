import {
  activityFeedQuerySchema,
  activityFiltersSchema,
  activityPageSchema,
  activityQuerySchema,
  deviceEventsQuerySchema,
  deviceLogsPageSchema,
  deviceLogsQuerySchema,
  idSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, requireSelfOrAdmin, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import {
  exportActivityCsv,
  getActivityFeed,
  getDeviceLogs,
  getEventsOfDevice,
  getHistory,
} from './events.service';

const config = { access: access.portalAdmin };
const idParams = z.object({ id: idSchema });
const tags = ['events'];

/** What locks report, and the portal-wide activity feed (brief §2 activity). */
export const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'events');
  app.get(
    '/portal/device/logs',
    {
      config,
      schema: {
        tags,
        summary: "A page of the portal's lock events",
        querystring: deviceLogsQuerySchema,
        response: { 200: deviceLogsPageSchema, ...errorResponses },
      },
    },
    async (request) => getDeviceLogs(app.db, actingPortal(request).portal.id, request.query),
  );
  app.get(
    '/portal/activity',
    {
      config,
      schema: {
        tags,
        summary:
          'Admin changes and lock events, newest first, paged by time; narrowed to a lock, a person and/or a kind',
        querystring: activityFeedQuerySchema,
        response: { 200: activityPageSchema, ...errorResponses },
      },
    },
    async (request) => getActivityFeed(app.db, actingPortal(request).portal.id, request.query),
  );
  app.get(
    '/portal/activity/export',
    {
      config,
      schema: {
        tags,
        summary: 'The activity feed as CSV, with the same filters (newest first, at most 10,000 rows)',
        querystring: activityFiltersSchema,
        produces: ['text/csv'],
        response: { 200: z.string().describe('CSV with a header row'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const csv = await exportActivityCsv(app.db, actingPortal(request).portal, request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="activity.csv"')
        .send(csv);
    },
  );

  app.get(
    '/device/:id/history',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: "A lock's history: its events and the admin changes about it, newest first, paged by time",
        params: idParams,
        querystring: activityQuerySchema,
        response: { 200: activityPageSchema, ...errorResponses },
      },
    },
    async (request) =>
      getHistory(app.db, actingPortal(request).portal.id, { deviceId: request.params.id }, request.query),
  );
  app.get(
    '/device/:id/events',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: 'A page of what the lock reported, newest first',
        params: idParams,
        querystring: deviceEventsQuerySchema,
        response: { 200: deviceLogsPageSchema, ...errorResponses },
      },
    },
    async (request) =>
      getEventsOfDevice(app.db, actingPortal(request).portal.id, request.params.id, request.query),
  );
  app.get(
    '/user/:id/history',
    {
      // A person may read their own history; admins anyone's.
      config: { access: access.portalMember, ids: { id: 'userId' } },
      schema: {
        tags,
        summary: "A person's history: the locks they opened or were refused at, and the changes about them",
        params: idParams,
        querystring: activityQuerySchema,
        response: { 200: activityPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      requireSelfOrAdmin(request, request.params.id);
      const acting = actingPortal(request);
      const page = await getHistory(app.db, acting.portal.id, { userId: request.params.id }, request.query);
      if (acting.role === 'admin') return page;
      // A basic user reads who changed their access, not the address the admin worked from.
      return {
        ...page,
        items: page.items.map((item) =>
          item.source === 'change' ? { ...item, change: { ...item.change, ip: null } } : item,
        ),
      };
    },
  );
};

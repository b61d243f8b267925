import {
  idSchema,
  reportRequestSchema,
  reportSchema,
  reportScheduleInputSchema,
  reportScheduleListSchema,
  reportScheduleSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assertFeatureEnabled } from '../../base/feature-flags/feature-flags';
import { access, actingPortal, changeContext, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { reportCsv, reportPdf } from './report-files';
import { createSchedule, getSchedules, removeSchedule } from './report-schedules';
import { getReport, prepareReport, reportFileName } from './reports.service';

const config = { access: access.portalAdmin };
const tags = ['reports'];
const filtersExample = { deviceIds: ['{deviceId}'], groupIds: ['{groupId}'], userIds: ['{userId}'] };

/** Reports (brief POST portal/report, screen deviceanduserreports) and scheduled reports. */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'reports');
  app.post(
    '/portal/report',
    {
      config: {
        ...config,
        example: { body: { kind: 'entries', period: { preset: 'last-week' }, filters: filtersExample } },
      },
      schema: {
        tags,
        summary:
          "A report of the portal (entries, access matrix, lock health, people without access): one page as JSON, or the whole of it as CSV or PDF (streamed). Filter ids that are not the portal's are a 404",
        body: reportRequestSchema,
        produces: ['application/json', 'text/csv', 'application/pdf'],
        response: { 200: reportSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const portalId = actingPortal(request).portal.id;
      // Platform staff may switch reports off (deployment-wide or per portal): 403 feature_disabled.
      await assertFeatureEnabled(app.db, portalId, 'reports');
      const body = request.body;
      if (body.format === 'json') return getReport(app.db, portalId, body);
      const context = await prepareReport(app.db, portalId, body);
      const extension = body.format;
      const stream =
        extension === 'csv'
          ? reportCsv(app.db, portalId, context)
          : await reportPdf(app.db, portalId, context);
      return reply
        .type(extension === 'csv' ? 'text/csv; charset=utf-8' : 'application/pdf')
        .header('content-disposition', `attachment; filename="${reportFileName(context, extension)}"`)
        .header('cache-control', 'no-store')
        .send(stream as never); // a stream is written as it is, never serialised
    },
  );
  app.get(
    '/portal/report/schedules',
    {
      config,
      schema: {
        tags,
        summary: 'The reports mailed weekly or monthly to admins of the portal',
        response: { 200: reportScheduleListSchema, ...errorResponses },
      },
    },
    async (request) => getSchedules(app.db, actingPortal(request).portal.id),
  );
  app.post(
    '/portal/report/schedules',
    {
      config: {
        ...config,
        example: { body: { kind: 'health', frequency: 'weekly', filters: filtersExample } },
      },
      schema: {
        tags,
        summary:
          "Mails a report after each week or month to admins of the portal (none named: the caller); filters and recipients must be the portal's",
        body: reportScheduleInputSchema,
        response: { 201: reportScheduleSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await assertFeatureEnabled(app.db, actingPortal(request).portal.id, 'reports');
      const schedule = await createSchedule(app.db, changeContext(request), request.body);
      return reply.status(201).send(schedule);
    },
  );
  app.delete(
    '/portal/report/schedules/:id',
    {
      config: { ...config, ids: { id: 'reportScheduleId' } },
      schema: {
        tags,
        summary: 'Stops a scheduled report',
        params: z.object({ id: idSchema }),
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeSchedule(app.db, changeContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};

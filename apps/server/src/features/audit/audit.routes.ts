import { auditPageSchema, auditQuerySchema } from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { toCount } from '../../db/mappers';
import { access, actingPortal, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { toAuditEntry } from './audit.presenter';
import { listAuditEntries } from '../../base/audit/audit.repository';

/** The admin change log (brief §2 adminChangeLog): every admin change, newest first by default. */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'audit');
  app.get(
    '/portal/audit',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags: ['audit'],
        summary: "A page of the portal's admin change log",
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const filterKey = {
        entityType: 'entityType',
        entityId: 'entityId',
        deviceId: 'deviceId',
        userId: 'userId',
        action: 'action',
        actor: 'actorUserId',
      } as const;
      const filter = q.filterBy && q.filterValue ? { [filterKey[q.filterBy]]: q.filterValue } : {};
      const { rows, total } = await listAuditEntries(app.db, actingPortal(request).portal.id, {
        skip: q.skip,
        limit: q.limit,
        descending: q.sortBy ? q.descending : true,
        filter,
        fromDate: q.fromDate,
        toDate: q.toDate,
      });
      return { items: rows.map(toAuditEntry), total: toCount(total) };
    },
  );
};

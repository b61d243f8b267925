import { auditPageSchema, auditQuerySchema, type AuditEntry } from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { toCount, toIso } from '../../db/mappers';
import { access, actingPortal } from '../../http/access';
import { errorResponses } from '../../http/responses';
import { listAuditEntries } from './audit.repository';

type AuditRow = Awaited<ReturnType<typeof listAuditEntries>>['rows'][number];

function toAuditEntry(row: AuditRow): AuditEntry {
  const parse = (json: string | null) => (json === null ? null : (JSON.parse(json) as unknown));
  return {
    _id: row.id,
    actor:
      row.actor_user_id && row.actor_email
        ? {
            _id: row.actor_user_id,
            email: row.actor_email,
            name: [row.actor_first_name, row.actor_last_name].filter(Boolean).join(' ') || row.actor_email,
          }
        : null,
    action: row.action,
    entityType: row.entity_type,
    entityId: row.entity_id,
    before: parse(row.before_json),
    after: parse(row.after_json),
    ip: row.ip,
    createdAt: toIso(row.created_at),
  };
}

/** The admin change log (brief §2 adminChangeLog): every admin change, newest first by default. */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
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
      const filterKey = { entityType: 'entityType', action: 'action', actor: 'actorUserId' } as const;
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

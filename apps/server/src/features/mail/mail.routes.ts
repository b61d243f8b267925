import { outboxPageSchema, outboxQuerySchema } from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { toCount, toIso } from '../../db/mappers';
import { access, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { listOutbox } from '../../base/mail/mail.repository';

/** The dev mailbox: every message the portal wrote, for platform staff (sent or not). */
export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'mail');
  app.get(
    '/admin/mail',
    {
      config: { access: access.platform },
      schema: {
        tags: ['mail'],
        summary: `The outbox, newest first (${app.mail.transportName})`,
        querystring: outboxQuerySchema,
        response: { 200: outboxPageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const q = request.query;
      const { rows, total } = await listOutbox(app.db, {
        skip: q.skip,
        limit: q.limit,
        search: q.search,
        template: q.filterBy === 'template' ? q.filterValue : undefined,
        descending: q.sortBy ? q.descending : true,
      });
      return {
        items: rows.map((row) => ({
          _id: row.id,
          template: row.template,
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body,
          attempts: row.attempts,
          lastError: row.last_error,
          createdAt: toIso(row.created_at),
          sentAt: toIso(row.sent_at),
          failedAt: toIso(row.failed_at),
        })),
        total: toCount(total),
      };
    },
  );
};

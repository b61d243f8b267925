import { bulkAccessInputSchema, bulkAccessResultSchema } from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, changeContext, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { changeAccessOfMany } from './bulk-access.service';

/** Acting on many people at once from the people list (issue 19, item 7). */
export const bulkAccessRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'bulk-access');
  app.post(
    '/portal/users/access',
    {
      config: {
        access: access.portalAdmin,
        example: {
          body: { userIds: ['{userId}'], target: { kind: 'lock', id: '{deviceId}' }, change: 'grant' },
        },
      },
      schema: {
        tags: ['access'],
        summary: 'Give or remove access to one lock or one group for several people at once (all or nothing)',
        body: bulkAccessInputSchema,
        response: { 200: bulkAccessResultSchema, ...errorResponses },
      },
    },
    async (request) => changeAccessOfMany(app.db, changeContext(request), request.body),
  );
};

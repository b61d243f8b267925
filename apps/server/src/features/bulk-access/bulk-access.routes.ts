import { bulkAccessInputSchema, bulkAccessResultSchema } from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, changeContext, requireApiKeyScope, routesOfFeature } from '../../base/http/access';
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
    async (request) => {
      // An API key needs the target's scope too, as on the one-person routes (PUT user/{id}/device/{id},
      // PUT group/{id}/user/{id}): people:write alone gives nobody a lock.
      requireApiKeyScope(request, request.body.target.kind === 'lock' ? 'devices:write' : 'groups:write');
      return changeAccessOfMany(app.db, changeContext(request), request.body);
    },
  );
};

import {
  apiKeyCreatedSchema,
  apiKeyCreateSchema,
  apiKeyIdParamsSchema,
  apiKeyListSchema,
  apiKeyRecordSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, actingPortal, changeContext, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { createApiKey, getApiKeys, revokeKey } from './api-keys.service';

// Portal admins' API keys (issue 21, item 1). `api-keys` has no key area (API_KEY_AREA_OF_FEATURE):
// a key can never list, mint or revoke keys, whatever its scopes.
const config = { access: access.portalAdmin, apiArea: null };
const tags = ['api-keys'];

export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'api-keys');

  app.get(
    '/portal/apikeys',
    {
      config,
      schema: {
        tags,
        summary: "The portal's API keys (never their secrets)",
        response: { 200: apiKeyListSchema, ...errorResponses },
      },
    },
    async (request) => getApiKeys(app.db, actingPortal(request).portal.id),
  );

  app.post(
    '/portal/apikeys',
    {
      config,
      schema: {
        tags,
        summary: 'Create an API key: the answer holds its secret, shown this once',
        body: apiKeyCreateSchema,
        response: { 201: apiKeyCreatedSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createApiKey(app.db, changeContext(request), request.body)),
  );

  app.post(
    '/portal/apikeys/:id/revoke',
    {
      config: { ...config, ids: { id: 'apiKeyId' } },
      schema: {
        tags,
        summary: 'Revoke an API key: it stops working at once, on every server',
        params: apiKeyIdParamsSchema,
        response: { 200: apiKeyRecordSchema, ...errorResponses },
      },
    },
    async (request) => revokeKey(app.db, changeContext(request), request.params.id),
  );
};

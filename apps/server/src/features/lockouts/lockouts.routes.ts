import {
  idSchema,
  lockoutInputSchema,
  lockoutRecordSchema,
  lockoutsPageSchema,
  lockoutsQuerySchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { getLockout, getLockoutsPage, putLockout, removeLockout } from './lockouts.service';

const idParams = z.object({ id: idSchema });
const config = { access: access.portalAdmin };
const tags = ['lockouts'];

/** Lockouts: block a set of locks for a period, optionally letting admins through. */
export const lockoutRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'lockouts');
  app.get(
    '/portal/lockouts',
    {
      config,
      schema: {
        tags,
        summary: 'A page of lockouts',
        querystring: lockoutsQuerySchema,
        response: { 200: lockoutsPageSchema, ...errorResponses },
      },
    },
    async (request) => getLockoutsPage(app.db, actingPortal(request).portal.id, request.query),
  );

  app.post(
    '/portal/lockout',
    {
      config,
      schema: {
        tags,
        summary: 'Create a lockout',
        body: lockoutInputSchema,
        response: { 201: lockoutRecordSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await putLockout(app.db, changeContext(request), null, request.body)),
  );

  app.get(
    '/portal/lockout/:id',
    {
      config: { ...config, ids: { id: 'lockoutId' } },
      schema: {
        tags,
        summary: 'A lockout',
        params: idParams,
        response: { 200: lockoutRecordSchema, ...errorResponses },
      },
    },
    async (request) => getLockout(app.db, actingPortal(request).portal.id, request.params.id),
  );

  app.post(
    '/portal/lockout/:id',
    {
      config: {
        ids: { id: 'lockoutId' },
        ...config,
        example: {
          body: {
            name: 'Renamed',
            from: '2030-01-01T00:00:00Z',
            deviceIds: ['{deviceId}'],
          },
        },
      },
      schema: {
        tags,
        summary: 'Change a lockout',
        params: idParams,
        body: lockoutInputSchema,
        response: { 200: lockoutRecordSchema, ...errorResponses },
      },
    },
    async (request) => putLockout(app.db, changeContext(request), request.params.id, request.body),
  );

  app.delete(
    '/portal/lockout/:id',
    {
      config: { ...config, ids: { id: 'lockoutId' } },
      schema: {
        tags,
        summary: 'Delete a lockout',
        params: idParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeLockout(app.db, changeContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};

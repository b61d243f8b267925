import {
  activityPageSchema,
  activityQuerySchema,
  idSchema,
  keyCreateSchema,
  keySchema,
  keysPageSchema,
  keysQuerySchema,
  keyUpdateSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import {
  createKey,
  deleteKey,
  getKey,
  getKeyDevices,
  getKeyHistory,
  getKeysOfUser,
  getKeysPage,
  handOverKey,
  linkKeyToDevice,
  saveKey,
  takeBackKey,
  unlinkKeyFromDevice,
} from './keys.service';

const id = idSchema;
const idParams = z.object({ id });
const userParams = z.object({ id, userId: id });
const deviceParams = z.object({ id, deviceId: id });
const config = { access: access.portalAdmin };
const tags = ['keys'];
const keyResponse = { 200: keySchema, ...errorResponses };

/** Keys, physical and digital: who holds which key to which locks (brief §7 Keys). */
export const keyRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'credentials');
  const portalOf = (request: Parameters<typeof actingPortal>[0]) => actingPortal(request).portal.id;

  app.get(
    '/portal/keys',
    {
      config,
      schema: {
        tags,
        summary: "A page of the portal's keys",
        querystring: keysQuerySchema,
        response: { 200: keysPageSchema, ...errorResponses },
      },
    },
    async (request) => getKeysPage(app.db, portalOf(request), request.query),
  );
  app.post(
    '/portal/keys',
    {
      config: {
        ...config,
        example: {
          body: {
            name: 'Spare',
            type: 'digital',
            userId: '{userId}',
            deviceIds: ['{deviceId}'],
          },
        },
      },
      schema: {
        tags,
        summary: 'Add a key, optionally handed to a person and linked to locks',
        body: keyCreateSchema,
        response: { 201: keySchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createKey(app.db, changeContext(request), request.body)),
  );
  app.get(
    '/portal/keys/:id',
    {
      config: { ...config, ids: { id: 'keyId' } },
      schema: { tags, summary: 'A key', params: idParams, response: keyResponse },
    },
    async (request) => getKey(app.db, portalOf(request), request.params.id),
  );
  app.post(
    '/portal/keys/:id',
    {
      config: { ...config, example: { body: { name: 'Renamed', number: 'K-2' } }, ids: { id: 'keyId' } },
      schema: {
        tags,
        summary: "Change a key's name, number or validity",
        params: idParams,
        body: keyUpdateSchema,
        response: keyResponse,
      },
    },
    async (request) => saveKey(app.db, changeContext(request), request.params.id, request.body),
  );
  app.delete(
    '/portal/keys/:id',
    {
      config: { ...config, ids: { id: 'keyId' } },
      schema: {
        tags,
        summary: 'Retire a key',
        params: idParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteKey(app.db, changeContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.put(
    '/keys/:id/user/:userId',
    {
      config: { ...config, ids: { id: 'keyId' } },
      schema: { tags, summary: 'Hand the key to a person', params: userParams, response: keyResponse },
    },
    async (request) => handOverKey(app.db, changeContext(request), request.params.id, request.params.userId),
  );
  app.delete(
    '/keys/:id/user/:userId',
    {
      config: { ...config, ids: { id: 'keyId' } },
      schema: { tags, summary: 'The person gave the key back', params: userParams, response: keyResponse },
    },
    async (request) => takeBackKey(app.db, changeContext(request), request.params.id, request.params.userId),
  );
  app.put(
    '/keys/:id/device/:deviceId',
    {
      config: { ...config, ids: { id: 'keyId' } },
      schema: { tags, summary: 'The key works at this lock', params: deviceParams, response: keyResponse },
    },
    async (request) =>
      linkKeyToDevice(app.db, changeContext(request), request.params.id, request.params.deviceId),
  );
  app.delete(
    '/keys/:id/device/:deviceId',
    {
      config: { ...config, ids: { id: 'keyId' } },
      schema: {
        tags,
        summary: 'The key no longer works at this lock',
        params: deviceParams,
        response: keyResponse,
      },
    },
    async (request) =>
      unlinkKeyFromDevice(app.db, changeContext(request), request.params.id, request.params.deviceId),
  );
  app.get(
    '/keys/:id/devices',
    {
      config: { ...config, ids: { id: 'keyId' } },
      schema: {
        tags,
        summary: 'The locks a key works at',
        params: idParams,
        response: { 200: z.array(z.object({ _id: z.string(), name: z.string() })), ...errorResponses },
      },
    },
    async (request) => getKeyDevices(app.db, portalOf(request), request.params.id),
  );
  app.get(
    '/keys/:id/history',
    {
      config: { ...config, ids: { id: 'keyId' } },
      schema: {
        tags,
        summary: "A key's history: changes to it and the lock events where it was used, newest first",
        params: idParams,
        querystring: activityQuerySchema,
        response: { 200: activityPageSchema, ...errorResponses },
      },
    },
    async (request) => getKeyHistory(app.db, portalOf(request), request.params.id, request.query),
  );
  app.get(
    '/user/:id/keys',
    {
      config: { ...config, ids: { id: 'userId' } },
      schema: {
        tags,
        summary: 'The keys a person holds',
        params: idParams,
        response: { 200: z.array(keySchema), ...errorResponses },
      },
    },
    async (request) => getKeysOfUser(app.db, portalOf(request), request.params.id),
  );
};

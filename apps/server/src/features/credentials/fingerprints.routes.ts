import {
  fingerprintCreateSchema,
  fingerprintSchema,
  fingerprintsPageSchema,
  fingerprintsQuerySchema,
  fingerprintUpdateSchema,
  idSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import {
  createFingerprint,
  deleteFingerprint,
  getFingerprint,
  getFingerprintsOfDevice,
  getFingerprintsOfUser,
  getFingerprintsPage,
  linkFingerprintUser,
  saveFingerprint,
} from './fingerprints.service';

const id = idSchema;
const idParams = z.object({ id });
const config = { access: access.portalAdmin };
const tags = ['fingerprints'];

/** Fingerprints: a finger enrolled on one lock's reader, held by a person (brief §7 Fingerprint). */
export const fingerprintRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'credentials');
  const portalOf = (request: Parameters<typeof actingPortal>[0]) => actingPortal(request).portal.id;

  app.get(
    '/portal/fingerprints',
    {
      config,
      schema: {
        tags,
        summary: "A page of the portal's fingerprints",
        querystring: fingerprintsQuerySchema,
        response: { 200: fingerprintsPageSchema, ...errorResponses },
      },
    },
    async (request) => getFingerprintsPage(app.db, portalOf(request), request.query),
  );
  app.post(
    '/portal/fingerprint',
    {
      config: {
        ...config,
        example: {
          body: {
            deviceId: '{deviceId}',
            userId: '{userId}',
            templateId: '8',
            finger: 'left-thumb',
          },
        },
      },
      schema: {
        tags,
        summary: 'Record a finger enrolled at a lock for a person who can reach it',
        body: fingerprintCreateSchema,
        response: { 201: fingerprintSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createFingerprint(app.db, changeContext(request), request.body)),
  );
  app.get(
    '/portal/fingerprint/:id',
    {
      config: { ...config, ids: { id: 'fingerprintId' } },
      schema: {
        tags,
        summary: 'A fingerprint',
        params: idParams,
        response: { 200: fingerprintSchema, ...errorResponses },
      },
    },
    async (request) => getFingerprint(app.db, portalOf(request), request.params.id),
  );
  app.post(
    '/portal/fingerprint/:id',
    {
      config: { ...config, example: { body: { finger: 'left-index' } }, ids: { id: 'fingerprintId' } },
      schema: {
        tags,
        summary: "Change a fingerprint's finger, label or validity",
        params: idParams,
        body: fingerprintUpdateSchema,
        response: { 200: fingerprintSchema, ...errorResponses },
      },
    },
    async (request) => saveFingerprint(app.db, changeContext(request), request.params.id, request.body),
  );
  app.delete(
    '/portal/fingerprint/:id',
    {
      config: { ...config, ids: { id: 'fingerprintId' } },
      schema: {
        tags,
        summary: 'Delete a fingerprint',
        params: idParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteFingerprint(app.db, changeContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.put(
    '/portal/fingerprint/:id/user/:userId',
    {
      config: { ...config, ids: { id: 'fingerprintId' } },
      schema: {
        tags,
        summary: 'Link the fingerprint to another person who can reach its lock',
        params: z.object({ id, userId: id }),
        response: { 200: fingerprintSchema, ...errorResponses },
      },
    },
    async (request) =>
      linkFingerprintUser(app.db, changeContext(request), request.params.id, request.params.userId),
  );
  app.get(
    '/user/:id/fingerprints',
    {
      config: { ...config, ids: { id: 'userId' } },
      schema: {
        tags,
        summary: "A person's fingerprints",
        params: idParams,
        response: { 200: z.array(fingerprintSchema), ...errorResponses },
      },
    },
    async (request) => getFingerprintsOfUser(app.db, portalOf(request), request.params.id),
  );
  app.get(
    '/device/:id/fingerprints',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: 'The fingerprints enrolled at a lock',
        params: idParams,
        response: { 200: z.array(fingerprintSchema), ...errorResponses },
      },
    },
    async (request) => getFingerprintsOfDevice(app.db, portalOf(request), request.params.id),
  );
};

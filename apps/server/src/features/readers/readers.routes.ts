import {
  enrollmentKindSchema,
  enrollmentSchema,
  enrollmentStartSchema,
  idSchema,
  readerCreateSchema,
  readerPairedSchema,
  readerSchema,
  readersListSchema,
  readerUpdateSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';

const idParams = z.object({ id: idSchema });
const config = { access: access.portalAdmin };
const tags = ['readers'];

/**
 * Enrollment readers (issue 21, item 5): desk readers an admin pairs, and "tap a card now" / "scan a
 * finger now" from a person's page (docs/device-protocol.md §7, docs/decisions.md "Enrollment readers").
 */
export const readerRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'readers');
  const readers = () => app.readers;

  app.get(
    '/portal/readers',
    {
      config,
      schema: {
        tags,
        summary: "The portal's paired readers, with whether each is online",
        response: { 200: readersListSchema, ...errorResponses },
      },
    },
    async (request) => readers().list(actingPortal(request).portal.id),
  );

  app.post(
    '/portal/reader',
    {
      config,
      schema: {
        tags,
        summary: 'Pair a reader: answers its id and secret, this once',
        body: readerCreateSchema,
        response: { 201: readerPairedSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await readers().pair(changeContext(request), request.body)),
  );

  app.get(
    '/portal/reader/:id',
    {
      config: { ...config, ids: { id: 'readerId' } },
      schema: {
        tags,
        summary: 'A reader',
        params: idParams,
        response: { 200: readerSchema, ...errorResponses },
      },
    },
    async (request) => readers().get(actingPortal(request).portal.id, request.params.id),
  );

  app.post(
    '/portal/reader/:id',
    {
      config: { ...config, ids: { id: 'readerId' }, example: { body: { name: 'Reception' } } },
      schema: {
        tags,
        summary: 'Rename a reader (or say what it reads)',
        params: idParams,
        body: readerUpdateSchema,
        response: { 200: readerSchema, ...errorResponses },
      },
    },
    async (request) => readers().rename(changeContext(request), request.params.id, request.body),
  );

  app.delete(
    '/portal/reader/:id',
    {
      config: { ...config, ids: { id: 'readerId' } },
      schema: {
        tags,
        summary: 'Unpair a reader: its secret stops working at once',
        params: idParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await readers().remove(changeContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/portal/reader/:id/enroll',
    {
      config: {
        ...config,
        ids: { id: 'readerId' },
        example: { body: { kind: 'rfid', userId: '{userId}' } },
      },
      schema: {
        tags,
        summary: 'Ask the reader for a card or a finger for a person (answered within 60 s)',
        params: idParams,
        body: enrollmentStartSchema,
        response: { 201: enrollmentSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await readers().startEnrollment(changeContext(request), request.params.id, request.body)),
  );

  app.get(
    '/portal/reader-enrollments',
    {
      config,
      schema: {
        tags,
        summary: "A person's latest enrollments (or the portal's), newest first",
        querystring: z.object({
          userId: idSchema.optional(),
          kind: enrollmentKindSchema.optional(),
        }),
        response: { 200: z.object({ items: z.array(enrollmentSchema) }), ...errorResponses },
      },
    },
    async (request) => ({
      items: await readers().listEnrollments(actingPortal(request).portal.id, {
        ...request.query,
        limit: 50,
      }),
    }),
  );

  app.get(
    '/portal/reader-enrollment/:id',
    {
      config: { ...config, ids: { id: 'enrollmentId' } },
      schema: {
        tags,
        summary:
          "An enrollment's state: waiting, read (with the card UID or template id), failed, expired, cancelled",
        params: idParams,
        response: { 200: enrollmentSchema, ...errorResponses },
      },
    },
    async (request) => readers().getEnrollment(actingPortal(request).portal.id, request.params.id),
  );

  app.post(
    '/portal/reader-enrollment/:id/cancel',
    {
      config: { ...config, ids: { id: 'enrollmentId' } },
      schema: {
        tags,
        summary: 'Stop waiting for the reader',
        params: idParams,
        response: { 200: enrollmentSchema, ...errorResponses },
      },
    },
    async (request) => readers().cancelEnrollment(changeContext(request), request.params.id),
  );
};

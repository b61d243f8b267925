import {
  idSchema,
  rfidCardSchema,
  rfidInputSchema,
  rfidsPageSchema,
  rfidsQuerySchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import {
  getCard,
  getCardsOfDevice,
  getCardsOfUser,
  getCardsPage,
  registerCard,
  removeCard,
  saveCard,
} from './rfid.service';

const idParams = z.object({ id: idSchema });
const config = { access: access.portalAdmin };
const tags = ['rfid'];

/** RFID cards: register, hand to a person, limit in time, revoke (brief §7 Rfid). */
export const rfidRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'credentials');
  const portalOf = (request: Parameters<typeof actingPortal>[0]) => actingPortal(request).portal.id;

  app.get(
    '/portal/rfids',
    {
      config,
      schema: {
        tags,
        summary: "A page of the portal's cards",
        querystring: rfidsQuerySchema,
        response: { 200: rfidsPageSchema, ...errorResponses },
      },
    },
    async (request) => getCardsPage(app.db, portalOf(request), request.query),
  );
  app.post(
    '/portal/rfid',
    {
      config: { ...config, example: { body: { uid: '04A1B2C3', userId: '{userId}' } } },
      schema: {
        tags,
        summary: 'Register a card',
        body: rfidInputSchema,
        response: { 201: rfidCardSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await registerCard(app.db, changeContext(request), request.body)),
  );
  app.get(
    '/portal/rfid/:id',
    {
      config: { ...config, ids: { id: 'rfidId' } },
      schema: {
        tags,
        summary: 'A card',
        params: idParams,
        response: { 200: rfidCardSchema, ...errorResponses },
      },
    },
    async (request) => getCard(app.db, portalOf(request), request.params.id),
  );
  app.post(
    '/portal/rfid/:id',
    {
      config: {
        ...config,
        example: { body: { uid: '04A1B2C3', userId: '{userId}' } },
        ids: { id: 'rfidId' },
      },
      schema: {
        tags,
        summary: "Change a card's label, holder or validity",
        params: idParams,
        body: rfidInputSchema,
        response: { 200: rfidCardSchema, ...errorResponses },
      },
    },
    async (request) => saveCard(app.db, changeContext(request), request.params.id, request.body),
  );
  app.delete(
    '/portal/rfid/:id',
    {
      config: { ...config, ids: { id: 'rfidId' } },
      schema: {
        tags,
        summary: 'Revoke a card',
        params: idParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeCard(app.db, changeContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/user/:id/rfids',
    {
      config: { ...config, ids: { id: 'userId' } },
      schema: {
        tags,
        summary: 'The cards a person holds',
        params: idParams,
        response: { 200: z.array(rfidCardSchema), ...errorResponses },
      },
    },
    async (request) => getCardsOfUser(app.db, portalOf(request), request.params.id),
  );
  app.get(
    '/device/:id/rfids',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: 'The cards that reach a lock',
        params: idParams,
        response: { 200: z.array(rfidCardSchema), ...errorResponses },
      },
    },
    async (request) => getCardsOfDevice(app.db, portalOf(request), request.params.id),
  );
};

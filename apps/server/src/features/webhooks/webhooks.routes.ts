import {
  idSchema,
  webhookDeliveryPageSchema,
  webhookDeliveryQuerySchema,
  webhookDeliverySchema,
  webhookEndpointInputSchema,
  webhookEndpointListSchema,
  webhookEndpointPatchSchema,
  webhookEndpointSchema,
  webhookSecretSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import {
  changeEndpoint,
  createEndpoint,
  getDeliveries,
  getEndpoint,
  getEndpoints,
  removeEndpoint,
  replayDelivery,
  revealSecret,
  rotateSecret,
  sendTestEvent,
} from './webhooks.service';

const tags = ['webhooks'];
const config = { access: access.portalAdmin };
const byId = { ...config, ids: { id: 'webhookEndpointId' as const } };
const params = z.object({ id: idSchema });
/** A valid body of POST portal/webhooks (its spec file sends it). */
export const exampleEndpointBody = {
  url: 'https://pms.example.com/latchkey/webhooks',
  description: 'Our PMS',
  eventTypes: ['lock.event', 'credential.confirmed', 'credential.rejected'],
  enabled: true,
};

/**
 * Outgoing webhooks (issue 21, item 2): a portal's endpoints, their secrets, delivery logs, replay
 * and test events. Admins only; with an API key, the `webhooks` area.
 */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'webhooks');
  const settings = () => ({ allowPrivateAddresses: app.config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES });

  app.get(
    '/portal/webhooks',
    {
      config,
      schema: {
        tags,
        summary: "The portal's webhook endpoints, each with its last attempt",
        response: { 200: webhookEndpointListSchema, ...errorResponses },
      },
    },
    async (request) => getEndpoints(app.db, actingPortal(request).portal.id),
  );
  app.post(
    '/portal/webhooks',
    {
      config,
      schema: {
        tags,
        summary:
          'Adds an endpoint (https; events picked from WEBHOOK_EVENT_TYPES, or null for all) with a new whsec_ secret',
        body: webhookEndpointInputSchema,
        response: { 201: webhookEndpointSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createEndpoint(app.db, changeContext(request), request.body, settings())),
  );
  app.get(
    '/portal/webhooks/:id',
    {
      config: byId,
      schema: {
        tags,
        summary: 'One endpoint',
        params,
        response: { 200: webhookEndpointSchema, ...errorResponses },
      },
    },
    async (request) => getEndpoint(app.db, actingPortal(request).portal.id, request.params.id),
  );
  app.patch(
    '/portal/webhooks/:id',
    {
      config: { ...byId, example: { body: { description: 'Our PMS (staging)', enabled: true } } },
      schema: {
        tags,
        summary:
          'Changes an endpoint: address, description, events, enabled (enabling clears a disable for failing)',
        params,
        body: webhookEndpointPatchSchema,
        response: { 200: webhookEndpointSchema, ...errorResponses },
      },
    },
    async (request) =>
      changeEndpoint(app.db, changeContext(request), request.params.id, request.body, settings()),
  );
  app.delete(
    '/portal/webhooks/:id',
    {
      config: byId,
      schema: {
        tags,
        summary: 'Removes an endpoint and its delivery log',
        params,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeEndpoint(app.db, changeContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/portal/webhooks/:id/secret',
    {
      config: byId,
      schema: {
        tags,
        summary: "The endpoint's signing secret (whsec_…), for the receiver's configuration (audited)",
        params,
        response: { 200: webhookSecretSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return revealSecret(app.db, changeContext(request), request.params.id);
    },
  );
  app.post(
    '/portal/webhooks/:id/secret/rotate',
    {
      config: byId,
      schema: {
        tags,
        summary:
          'A new signing secret; the previous one still signs (a second signature in webhook-signature) for 24 h',
        params,
        response: { 200: webhookSecretSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return rotateSecret(app.db, changeContext(request), request.params.id);
    },
  );
  app.get(
    '/portal/webhooks/:id/deliveries',
    {
      config: byId,
      schema: {
        tags,
        summary:
          "The endpoint's delivery log, newest first: each message with every attempt (status, time, answer)",
        params,
        querystring: webhookDeliveryQuerySchema,
        response: { 200: webhookDeliveryPageSchema, ...errorResponses },
      },
    },
    async (request) =>
      getDeliveries(app.db, actingPortal(request).portal.id, request.params.id, request.query),
  );
  app.post(
    '/portal/webhooks/:id/deliveries/:webhookDeliveryId/replay',
    {
      config: byId,
      schema: {
        tags,
        summary: 'Sends a message again now: the same webhook-id and body, a fresh timestamp and signature',
        params: params.extend({ webhookDeliveryId: idSchema }),
        response: { 200: webhookDeliverySchema, ...errorResponses },
      },
    },
    async (request) =>
      replayDelivery(app.db, changeContext(request), request.params.id, request.params.webhookDeliveryId),
  );
  app.post(
    '/portal/webhooks/:id/test',
    {
      config: byId,
      schema: {
        tags,
        summary: 'Sends a webhook.test event to this endpoint now',
        params,
        response: { 201: webhookDeliverySchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await sendTestEvent(app.db, changeContext(request), request.params.id)),
  );
};

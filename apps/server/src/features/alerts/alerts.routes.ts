import {
  alertRuleInputSchema,
  alertRuleSchema,
  idSchema,
  notificationsPageSchema,
  notificationsQuerySchema,
  notificationsReadSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, signedIn, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import {
  getAlertRules,
  getNotifications,
  markNotificationsRead,
  putAlertRule,
  removeAlertRule,
} from './alerts.service';

const idParams = z.object({ id: idSchema });
const config = { access: access.portalAdmin };
const tags = ['alerts'];

/** Alert rules and the notifications they make (the notificationAndAlert screen). */
export const alertRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'alerts');
  app.get(
    '/portal/alerts/rules',
    {
      config,
      schema: {
        tags,
        summary: "The portal's alert rules",
        response: { 200: z.array(alertRuleSchema), ...errorResponses },
      },
    },
    async (request) => getAlertRules(app.db, actingPortal(request).portal.id),
  );

  app.post(
    '/portal/alerts/rules',
    {
      config: {
        ...config,
        example: {
          body: {
            kind: 'tamper',
            name: 'Watch',
            deviceIds: ['{deviceId}'],
          },
        },
      },
      schema: {
        tags,
        summary: 'Add an alert rule',
        body: alertRuleInputSchema,
        response: { 201: alertRuleSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await putAlertRule(app.db, changeContext(request), null, request.body)),
  );

  app.post(
    '/portal/alerts/rules/:id',
    {
      config: {
        ...config,
        example: { body: { kind: 'tamper', name: 'Renamed' } },
        ids: { id: 'alertRuleId' },
      },
      schema: {
        tags,
        summary: 'Save an alert rule',
        params: idParams,
        body: alertRuleInputSchema,
        response: { 200: alertRuleSchema, ...errorResponses },
      },
    },
    async (request) => putAlertRule(app.db, changeContext(request), request.params.id, request.body),
  );

  app.delete(
    '/portal/alerts/rules/:id',
    {
      config: { ...config, ids: { id: 'alertRuleId' } },
      schema: {
        tags,
        summary: 'Delete an alert rule (its notifications stay)',
        params: idParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeAlertRule(app.db, changeContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/portal/notifications',
    {
      config,
      schema: {
        tags,
        summary: "The portal's alerts, newest first, each marked unread for the reader",
        querystring: notificationsQuerySchema,
        response: { 200: notificationsPageSchema, ...errorResponses },
      },
    },
    async (request) =>
      getNotifications(app.db, actingPortal(request).portal.id, signedIn(request).user.id, request.query),
  );

  app.post(
    '/portal/notifications/read',
    {
      config,
      schema: {
        tags,
        summary: 'Mark every alert so far as read, for the signed-in person in this portal',
        response: { 200: notificationsReadSchema, ...errorResponses },
      },
    },
    async (request) =>
      markNotificationsRead(app.db, actingPortal(request).portal.id, signedIn(request).user.id),
  );
};

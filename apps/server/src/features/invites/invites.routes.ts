import { deviceInviteInputSchema, deviceInviteSchema, idSchema } from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { access, actingPortal, changeContext, signedIn, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import {
  createInvite,
  deleteInvite,
  getInvites,
  resendInvite,
  saveInvite,
  type InviteSender,
} from './invites.service';

const id = idSchema;
const deviceParams = z.object({ id });
const inviteParams = z.object({ id, inviteId: id });
const config = { access: access.portalAdmin };
const tags = ['device invites'];

/** Device invites: guests get a time-bounded access code for one lock (brief §7 Devices). */
export const inviteRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'invites');
  const sender = (request: FastifyRequest): InviteSender => ({
    user: signedIn(request).user,
    throttle: app.mailThrottle,
  });
  app.get(
    '/device/:id/invite',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: "A lock's guest invites, newest first",
        params: deviceParams,
        response: { 200: z.array(deviceInviteSchema), ...errorResponses },
      },
    },
    async (request) => getInvites(app.db, actingPortal(request).portal.id, request.params.id),
  );
  app.post(
    '/device/:id/invite',
    {
      config: {
        ids: { id: 'deviceId' },
        ...config,
        example: {
          body: {
            name: 'Guest',
            days: [1, 2],
            start: '09:00',
            end: '17:00',
            startDate: '2030-01-01',
            endDate: '2030-01-31',
          },
        },
      },
      schema: {
        tags,
        summary: 'Invite a guest: a code for this lock in a weekly window between two dates',
        params: deviceParams,
        body: deviceInviteInputSchema,
        response: { 201: deviceInviteSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await createInvite(
            app.db,
            changeContext(request),
            request.params.id,
            request.body,
            sender(request),
          ),
        ),
  );
  app.post(
    '/device/:id/invite/:inviteId',
    {
      config: {
        ids: { id: 'deviceId' },
        ...config,
        example: {
          body: {
            name: 'Guest',
            days: [1, 2],
            start: '09:00',
            end: '17:00',
            startDate: '2030-01-01',
            endDate: '2030-01-31',
          },
        },
      },
      schema: {
        tags,
        summary: 'Change a guest invite (without a new code the guest keeps theirs)',
        params: inviteParams,
        body: deviceInviteInputSchema,
        response: { 200: deviceInviteSchema, ...errorResponses },
      },
    },
    async (request) =>
      saveInvite(
        app.db,
        changeContext(request),
        request.params.id,
        request.params.inviteId,
        request.body,
        sender(request),
      ),
  );
  app.delete(
    '/device/:id/invite/:inviteId',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: "Delete a guest invite; the guest's code stops working",
        params: inviteParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteInvite(app.db, changeContext(request), request.params.id, request.params.inviteId);
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/device/:id/invite/:inviteId/resend',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: 'Email the invitation to the guest again',
        params: inviteParams,
        response: { 200: deviceInviteSchema, ...errorResponses },
      },
    },
    async (request) =>
      resendInvite(
        app.db,
        changeContext(request),
        request.params.id,
        request.params.inviteId,
        sender(request),
      ),
  );
};

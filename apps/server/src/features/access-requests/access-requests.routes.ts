import {
  accessRequestDeclineSchema,
  accessRequestGrantSchema,
  accessRequestInputSchema,
  accessRequestListQuerySchema,
  accessRequestPageSchema,
  accessRequestSchema,
  idSchema,
  requestableLockSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, routesOfFeature, signedIn } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import {
  askForAccess,
  declineRequest,
  grantRequest,
  listForAdmin,
  listMine,
  readRequest,
  requestableLocks,
  withdrawRequest,
} from './access-requests.service';

const tags = ['access requests'];
const ids = { id: 'accessRequestId' } as const;
const idParams = z.object({ id: idSchema });

/**
 * Access requests (issue 21, the `accessRequest` collection): a person asks for a lock of their
 * portal from their /user area; the portal's admins grant (with a schedule) or decline.
 */
export const accessRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'access-requests');

  app.post(
    '/portal/accessRequest',
    {
      config: {
        access: access.portalMember,
        example: { body: { deviceId: '{deviceId}', note: 'I clean the office on Saturdays' } },
      },
      schema: {
        tags,
        summary: 'Ask for access to a lock of the portal (any member, for themselves)',
        body: accessRequestInputSchema,
        response: { 201: accessRequestSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await askForAccess(app.db, changeContext(request), request.body)),
  );

  app.get(
    '/portal/accessRequest',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags,
        summary: "The portal's access requests, waiting ones first (admins)",
        querystring: accessRequestListQuerySchema,
        response: { 200: accessRequestPageSchema, ...errorResponses },
      },
    },
    async (request) => listForAdmin(app.db, actingPortal(request).portal.id, request.query),
  );

  app.get(
    '/portal/accessRequest/mine',
    {
      config: { access: access.portalMember },
      schema: {
        tags,
        summary: "The caller's own access requests and their answers",
        querystring: accessRequestListQuerySchema,
        response: { 200: accessRequestPageSchema, ...errorResponses },
      },
    },
    async (request) =>
      listMine(app.db, actingPortal(request).portal.id, signedIn(request).user.id, request.query),
  );

  app.get(
    '/portal/accessRequest/locks',
    {
      config: { access: access.portalMember },
      schema: {
        tags,
        summary: "The portal's locks one may ask for: whether the caller reaches each, or is waiting for it",
        response: { 200: z.array(requestableLockSchema), ...errorResponses },
      },
    },
    async (request) => requestableLocks(app.db, actingPortal(request).portal.id, signedIn(request).user.id),
  );

  app.get(
    '/portal/accessRequest/:id',
    {
      config: { access: access.portalMember, ids },
      schema: {
        tags,
        summary: 'One access request (its person, or an admin of the portal)',
        params: idParams,
        response: { 200: accessRequestSchema, ...errorResponses },
      },
    },
    async (request) =>
      readRequest(
        app.db,
        {
          portalId: actingPortal(request).portal.id,
          userId: signedIn(request).user.id,
          isAdmin: actingPortal(request).role === 'admin',
        },
        request.params.id,
      ),
  );

  app.post(
    '/portal/accessRequest/:id/grant',
    {
      config: {
        access: access.portalAdmin,
        ids,
        example: { body: { schedule: { windows: [{ days: [6], start: '08:00', end: '14:00' }] } } },
      },
      schema: {
        tags,
        summary: 'Grant a waiting request: direct access to the lock with this schedule (null: at any time)',
        params: idParams,
        body: accessRequestGrantSchema,
        response: { 200: accessRequestSchema, ...errorResponses },
      },
    },
    async (request) => grantRequest(app.db, changeContext(request), request.params.id, request.body),
  );

  app.post(
    '/portal/accessRequest/:id/decline',
    {
      config: { access: access.portalAdmin, ids, example: { body: { reason: 'Saturdays are covered' } } },
      schema: {
        tags,
        summary: 'Decline a waiting request with the reason its person reads',
        params: idParams,
        body: accessRequestDeclineSchema,
        response: { 200: accessRequestSchema, ...errorResponses },
      },
    },
    async (request) => declineRequest(app.db, changeContext(request), request.params.id, request.body),
  );

  app.post(
    '/portal/accessRequest/:id/withdraw',
    {
      config: { access: access.portalMember, ids },
      schema: {
        tags,
        summary: 'Withdraw one of the caller’s own waiting requests',
        params: idParams,
        response: { 200: accessRequestSchema, ...errorResponses },
      },
    },
    async (request) => withdrawRequest(app.db, changeContext(request), request.params.id),
  );
};

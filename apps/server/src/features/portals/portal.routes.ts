import {
  idSchema,
  ownPortalCreateSchema,
  portalContextSchema,
  portalDataSchema,
  portalActingSchema,
  portalNameSchema,
  portalSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, signedIn, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { toPortal } from '../../base/tenancy/portal.presenter';
import {
  createOwnPortal,
  describeActing,
  getPortalContext,
  getPortalName,
  updatePortalData,
} from './portal.service';

const portalIdParams = z.object({ id: idSchema });

/** The portal a request acts in, its members, and the person's place in other portals (brief §7 Portal). */
export const portalRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'portals');
  const tags = ['portal'];

  app.get(
    '/portal',
    {
      config: { access: access.portalMember },
      schema: {
        tags,
        summary: 'The portal this request acts in',
        response: { 200: portalSchema, ...errorResponses },
      },
    },
    async (request) => toPortal(actingPortal(request).portal),
  );

  app.get(
    '/portal/acting',
    {
      config: { access: access.portalMember },
      schema: {
        tags,
        summary: 'Why the signed-in person may act in this portal: a member, its reseller, or platform staff',
        response: { 200: portalActingSchema, ...errorResponses },
      },
    },
    async (request) => describeActing(app.db, signedIn(request), actingPortal(request)),
  );

  app.post(
    '/portal/data',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags,
        summary: "Change the portal's name or time zone",
        body: portalDataSchema,
        response: { 200: portalSchema, ...errorResponses },
      },
    },
    async (request) =>
      updatePortalData(app.db, signedIn(request), actingPortal(request), request.body, request.ip),
  );

  app.get(
    '/portal/:id/name',
    {
      config: { access: access.account, ids: { id: 'portalId' } },
      schema: {
        tags,
        summary: "A portal's name, for its members",
        params: portalIdParams,
        response: { 200: portalNameSchema, ...errorResponses },
      },
    },
    async (request) => getPortalName(app.db, signedIn(request), request.params.id),
  );

  app.get(
    '/portal/user/portal/:id',
    {
      config: { access: access.account, ids: { id: 'portalId' } },
      schema: {
        tags,
        summary: "The signed-in person's membership in a portal, invitations included",
        params: portalIdParams,
        response: { 200: portalContextSchema, ...errorResponses },
      },
    },
    async (request) => getPortalContext(app.db, signedIn(request), request.params.id, false),
  );

  app.get(
    '/portal/user/portal/current/:id',
    {
      config: { access: access.account, ids: { id: 'portalId' } },
      schema: {
        tags,
        summary: 'Check that the person may act in a portal now, before switching to it',
        params: portalIdParams,
        response: { 200: portalContextSchema, ...errorResponses },
      },
    },
    async (request) => getPortalContext(app.db, signedIn(request), request.params.id, true),
  );

  app.post(
    '/user/:id/portal',
    {
      config: {
        access: access.account,
        example: { body: { name: 'A place of my own' } },
        ids: { id: 'userId' },
      },
      schema: {
        tags,
        summary: 'Start a portal of your own (a person who owns none); platform staff for anyone',
        params: portalIdParams,
        body: ownPortalCreateSchema,
        response: { 201: portalSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await createOwnPortal(app.db, signedIn(request), request.params.id, request.body, request.ip)),
  );
};

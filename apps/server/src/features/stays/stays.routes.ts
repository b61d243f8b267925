import {
  idSchema,
  lockStayGuestSchema,
  stayActionSchema,
  stayRequestInputSchema,
  stayRequestReceiptSchema,
  staySchema,
  staysPageSchema,
  staysQuerySchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, signedIn, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { actOnStay, getStay, listStays } from './stays.service';
import { requestStay } from './stay-requests.service';
import { listLockStayGuests } from './lock-stay-guests';
import { assertFeatureEnabled } from '../../base/feature-flags/feature-flags';

const id = idSchema;
const tags = ['stays'];
const admin = { access: access.portalAdmin };

/**
 * Requests and stays (issue 12). In `device/{id}/request/{reqId}` the `{id}` names the listing (the
 * brief's share-lock product shared one lock per listing; the screen is listing/{id}/request/{reqId}).
 */
export const stayRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'stays');
  app.post(
    '/device/:listingId/request',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'Ask for a stay (no sign-in; a confirmation mail goes to the requester)',
        description:
          'Limited per address (RENTAL_REQUESTS_PER_IP an hour) and per email (RENTAL_REQUESTS_PER_EMAIL): 429 beyond. Dates in the past, taken nights, or a stay shorter or longer than the listing allows: 400, nothing stored.',
        params: z.object({ listingId: id }),
        body: stayRequestInputSchema,
        response: { 201: stayRequestReceiptSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      await app.rental.countRequest(request.ip);
      await app.rental.countRequestMail(request.body.email);
      const receipt = await requestStay(
        app.db,
        app.rental.deps,
        request.params.listingId,
        request.body,
        request.ip,
      );
      return reply.status(201).send(receipt);
    },
  );

  app.get(
    '/portal/device/:id/stayGuests',
    {
      config: { ...admin, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: "The guests whose stays open a lock, now or later, with the stays' dates",
        params: z.object({ id }),
        response: { 200: z.array(lockStayGuestSchema), ...errorResponses },
      },
    },
    async (request) => listLockStayGuests(app.db, actingPortal(request).portal.id, request.params.id),
  );

  app.get(
    '/listing/:id/request',
    {
      config: { ...admin, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary: "A page of a listing's requests and stays (filter state or when: upcoming, past)",
        params: z.object({ id }),
        querystring: staysQuerySchema,
        response: { 200: staysPageSchema, ...errorResponses },
      },
    },
    async (request) => listStays(app.db, actingPortal(request).portal.id, request.params.id, request.query),
  );

  const stayParams = z.object({ id, reqId: id });
  app.get(
    '/device/:id/request/:reqId',
    {
      config: { ...admin, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary:
          'A request or stay of a listing, with its access on each lock and, while requested, whether the locks can take it',
        params: stayParams,
        response: { 200: staySchema, ...errorResponses },
      },
    },
    async (request) =>
      getStay(
        app.db,
        app.rental.deps,
        actingPortal(request).portal.id,
        request.params.id,
        request.params.reqId,
      ),
  );

  app.post(
    '/device/:id/request/:reqId',
    {
      config: {
        ...admin,
        example: { body: { action: 'decline', reason: 'Closed' } },
        ids: { id: 'listingId' },
      },
      schema: {
        tags,
        summary:
          'Approve (possibly with other dates), decline, cancel, change (extend, shorten, late check-out) or resend',
        description:
          'Approving or changing gives the guest access on every lock of the listing for exactly the stay, at once; 409 when the nights are taken or a lock is full (named). The guest is mailed once every lock has confirmed it.',
        params: stayParams,
        body: stayActionSchema,
        response: { 200: staySchema, ...errorResponses },
      },
    },
    async (request) => {
      // Rentals switched off for the portal (platform feature flags): no stay is given access.
      if (request.body.action === 'approve')
        await assertFeatureEnabled(app.db, actingPortal(request).portal.id, 'rentals');
      return actOnStay(
        app.db,
        app.rental.deps,
        changeContext(request),
        { user: signedIn(request).user, throttle: app.mailThrottle },
        request.params.id,
        request.params.reqId,
        request.body,
      );
    },
  );
};

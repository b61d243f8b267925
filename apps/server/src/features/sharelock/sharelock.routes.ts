import {
  deviceLandingInputSchema,
  deviceLandingSchema,
  guestAccountClaimSchema,
  idSchema,
  rentalImageSchema,
  rentalImageUpdateSchema,
  rentalImageUploadQuerySchema,
  shareLandingSchema,
  shareLockActivationMailedSchema,
  shareLockActivationSchema,
  shareLockSettingsInputSchema,
  shareLockSettingsSchema,
  shareTokenQuerySchema,
  shareTokenSchema,
  tokenResponseSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, routesOfFeature } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { errorResponses } from '../../base/http/responses';
import { findDevice } from '../devices/devices.repository';
import { IMAGE_MAX_BYTES } from '../listings/image-processing';
import { acceptImageBodies, imageUploadDescription, uploadedBytes } from '../listings/listings.routes';
import { addImage, deleteImage, editImage } from '../listings/listing-images.service';
import {
  activateStay,
  claimStayAccount,
  getDeviceLanding,
  getShareToken,
  openShareLanding,
  putDeviceLanding,
  putShareSettings,
} from './sharelock.service';

const id = idSchema;
const tags = ['share-lock'];
const admin = { access: access.portalAdmin };
const idParams = z.object({ id });
/** Share links: `<kind>.<id>.<version>.<mac>` (share-tokens.ts). */
const tokenSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._-]+$/, 'is not a share link');

/**
 * The brief's share-lock calls (§7 Devices). `device/{id}/sharelock` and `…/sharelock/token` name a
 * listing; `device/{id}/sharelock/landing` and `portal/device/{id}/landing` name a lock.
 */
export const shareLockRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'sharelock');
  app.post(
    '/device/:id/sharelock',
    {
      config: { ...admin, example: { body: { enabled: true } }, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary: "A listing's sharing (its public request page) on or off, and its share-lock settings",
        description:
          'initialTime: minutes before check-in that a guest’s access starts; startTime: the earliest time of day on the arrival date it may start. Current and upcoming stays follow at once.',
        params: idParams,
        body: shareLockSettingsInputSchema,
        response: { 200: shareLockSettingsSchema, ...errorResponses },
      },
    },
    async (request) => putShareSettings(app.db, changeContext(request), request.params.id, request.body),
  );

  app.get(
    '/device/:id/sharelock/token',
    {
      config: { ...admin, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary:
          "A listing's share link for its landing page (/s); rotate=true makes a new one and old links stop",
        params: idParams,
        querystring: shareTokenQuerySchema,
        response: { 200: shareTokenSchema, ...errorResponses },
      },
    },
    async (request) =>
      getShareToken(app.db, app.rental.deps, changeContext(request), request.params.id, request.query.rotate),
  );

  app.get(
    '/portal/device/:id/landing',
    {
      config: { ...admin, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: "A lock's arrival instructions (text, images, Wi-Fi, parking)",
        params: idParams,
        response: { 200: deviceLandingSchema, ...errorResponses },
      },
    },
    async (request) => getDeviceLanding(app.db, actingPortal(request).portal.id, request.params.id),
  );

  app.post(
    '/device/:id/sharelock/landing',
    {
      config: { ...admin, example: { body: { text: 'Ring twice' } }, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: "Replace a lock's arrival instructions (what its guests see on /s)",
        params: idParams,
        body: deviceLandingInputSchema,
        response: { 200: deviceLandingSchema, ...errorResponses },
      },
    },
    async (request) => putDeviceLanding(app.db, changeContext(request), request.params.id, request.body),
  );

  const requireLock = async (portalId: string, deviceId: string) => {
    const device = await findDevice(app.db, portalId, deviceId);
    if (!device) throw AppError.notFound('Lock');
    return device;
  };
  await app.register(async (scope) => {
    acceptImageBodies(scope);
    const uploads = scope.withTypeProvider<ZodTypeProvider>();
    uploads.post(
      '/device/:id/sharelock/landing/image',
      {
        config: { ...admin, ids: { id: 'deviceId' } },
        bodyLimit: IMAGE_MAX_BYTES + 1,
        schema: {
          tags,
          summary: "Add an image to a lock's arrival instructions",
          description: imageUploadDescription,
          params: idParams,
          querystring: rentalImageUploadQuerySchema,
          response: { 201: rentalImageSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const context = changeContext(request);
        const device = await requireLock(context.portalId, request.params.id);
        const image = await addImage(
          app.db,
          app.rental.images,
          context,
          { type: 'landing', id: device.id, label: device.name, deviceId: device.id },
          uploadedBytes(request),
          request.query.alt,
        );
        return reply.status(201).send(image);
      },
    );
  });
  const imageParams = z.object({ id, imageId: id });
  app.post(
    '/device/:id/sharelock/landing/image/:imageId',
    {
      config: {
        ...admin,
        example: { body: { alt: 'Renamed' } },
        ids: { id: 'deviceId', imageId: 'landingImageId' },
      },
      schema: {
        tags,
        summary: "Change an arrival image's alt text or position",
        params: imageParams,
        body: rentalImageUpdateSchema,
        response: { 200: rentalImageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const context = changeContext(request);
      await requireLock(context.portalId, request.params.id);
      return editImage(
        app.db,
        context,
        { type: 'landing', id: request.params.id },
        request.params.imageId,
        request.body,
      );
    },
  );
  app.delete(
    '/device/:id/sharelock/landing/image/:imageId',
    {
      config: { ...admin, ids: { id: 'deviceId', imageId: 'landingImageId' } },
      schema: {
        tags,
        summary: 'Remove an arrival image',
        params: imageParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const context = changeContext(request);
      await requireLock(context.portalId, request.params.id);
      await deleteImage(
        app.db,
        app.rental.images,
        context,
        { type: 'landing', id: request.params.id },
        request.params.imageId,
      );
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/device/token/:token',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary:
          "What a share link's landing page (/s) shows: a listing's arrival instructions, or a guest's own stay",
        description:
          'A guest link adds the guest’s code and a fresh QR code (two minutes) once every lock has confirmed them. Never another guest’s name or code.',
        params: z.object({ token: tokenSchema }),
        response: { 200: shareLandingSchema, ...errorResponses },
      },
    },
    // No limit: a link carries a 128-bit MAC (nothing to guess), and the page renews its QR code.
    async (request) =>
      openShareLanding(app.db, app.rental.deps, app.rental.signingKeys, request.params.token),
  );

  app.post(
    '/device/:activation/sharelock/add',
    {
      config: { access: access.public, sealed: true },
      schema: {
        tags,
        summary:
          "Keep a stay in an account: `activation` is the guest's link; signs in to the address's account, or mails its owner a link to make one",
        description:
          'The guest link is seen by hosts too, so it proves nothing about the address. With an account for the stay’s email, the password must be its own: 200 with a session. Without one, nothing is made: a single-use link goes to the stay’s address only (limited per address and caller), where its owner chooses a password (POST sharelock/account): 202. A stay without a guest address is a 400.',
        params: z.object({ activation: tokenSchema }),
        body: shareLockActivationSchema,
        response: { 200: tokenResponseSchema, 202: shareLockActivationMailedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const answer = await activateStay(
        app,
        app.rental.deps,
        request.params.activation,
        request.body,
        request.ip,
      );
      if ('mailed' in answer) return reply.status(202).send(answer.mailed);
      return reply.status(200).send(answer.session);
    },
  );

  app.post(
    '/sharelock/account',
    {
      config: { access: access.public, sealed: true },
      schema: {
        tags,
        summary:
          'The owner of a stay’s address, from the link mailed there, chooses a password: the account is made (confirmed) and keeps the stay',
        description:
          'The link works once, for 24 hours. 409 when the address has an account by now (keep the stay with its password instead). Answers a session.',
        body: guestAccountClaimSchema,
        response: { 200: tokenResponseSchema, ...errorResponses },
      },
    },
    async (request) => {
      await app.authLimits.countPasswordCheck(`link:${request.ip}`);
      return claimStayAccount(app, request.body, request.ip);
    },
  );
};

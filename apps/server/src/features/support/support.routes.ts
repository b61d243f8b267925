import multipart from '@fastify/multipart';
import {
  SUPPORT_MAX_IMAGES,
  supportInboxQuerySchema,
  supportListQuerySchema,
  supportPageSchema,
  supportReplyInputSchema,
  supportRequestDetailSchema,
  supportRequestInputSchema,
  supportUpdateSchema,
  idSchema,
} from '@latchkey/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, routesOfFeature, signedIn } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { errorResponses } from '../../base/http/responses';
import { IMAGE_MAX_BYTES, IMAGE_SIZES } from '../listings/image-processing';
import {
  fileRequest,
  listForMember,
  listForStaff,
  readForMember,
  readForStaff,
  readImageForMember,
  readImageForStaff,
  replyAsMember,
  replyAsStaff,
  updateForStaff,
  type MemberCaller,
} from './support.service';

const tags = ['support'];
const idParams = z.object({ id: idSchema });
const imageParams = z.object({
  id: idSchema,
  imageId: idSchema,
  size: z.enum(Object.keys(IMAGE_SIZES) as ['large', 'thumb']),
});
const requestIds = { id: 'supportRequestId' } as const;
const imageIds = { id: 'supportRequestId', imageId: 'supportImageId' } as const;

declare module 'fastify' {
  interface FastifyRequest {
    /** The image files of a multipart support request, read by the multipart parser. */
    supportUploads?: Buffer[];
  }
}

const caller = (request: FastifyRequest): MemberCaller => ({
  user: signedIn(request).user,
  acting: actingPortal(request),
  ip: request.ip,
});

function sendImage(reply: FastifyReply, image: { bytes: Buffer; contentType: string }) {
  // Only behind a session: browsers keep it for the page's life, shared caches never.
  return reply
    .header('cache-control', 'private, max-age=3600')
    .type(image.contentType)
    .send(image.bytes as unknown as string);
}

/**
 * Support requests (issue 20, item 4; brief "POST and GET portal/support"): the person's side under
 * portal/, platform staff's inbox under system/ (docs/decisions.md "Support requests").
 */
export const supportRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'support');
  // Registered in this plugin only: multipart bodies reach the support routes and no others. The
  // files are read into memory up to the image limit each (413 past it, or past the count); the
  // multipart parser counts with these limits, not the body limit, so JSON keeps its 1 MiB.
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: {
      fileSize: IMAGE_MAX_BYTES,
      files: SUPPORT_MAX_IMAGES,
      fields: 10,
      fieldSize: 20_000,
      parts: SUPPORT_MAX_IMAGES + 10,
    },
    async onFile(part) {
      if (part.fieldname !== 'images') {
        throw AppError.badRequest(`Unexpected file field "${part.fieldname}": send images as "images"`);
      }
      const bytes = await part.toBuffer();
      (this.supportUploads ??= []).push(bytes);
    },
  });

  app.post(
    '/portal/support',
    {
      // No declared example: its spec sends an upload (test/specs/support.spec.test.ts).
      config: { access: access.portalMember },
      schema: {
        tags,
        summary: 'File a support request (any member of the portal)',
        description: `JSON, or multipart/form-data with the same fields and up to ${SUPPORT_MAX_IMAGES} files named "images" (JPEG, PNG, WebP, GIF or AVIF, at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB each; checked by their bytes, re-encoded as WebP without metadata, with thumbnails). Limited per person and per portal (429).`,
        body: supportRequestInputSchema,
        response: { 201: supportRequestDetailSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const detail = await fileRequest(
        app.db,
        app.support,
        caller(request),
        request.body,
        request.supportUploads ?? [],
      );
      return reply.status(201).send(detail);
    },
  );

  app.get(
    '/portal/support',
    {
      config: { access: access.portalMember },
      schema: {
        tags,
        summary: "The caller's support requests; a portal admin's: the portal's (`mine=true`: their own)",
        querystring: supportListQuerySchema,
        response: { 200: supportPageSchema, ...errorResponses },
      },
    },
    async (request) => listForMember(app.db, caller(request), request.query),
  );

  app.get(
    '/portal/support/:id',
    {
      config: { access: access.portalMember, ids: requestIds },
      schema: {
        tags,
        summary: 'A support request with its images and thread (its person, or an admin of its portal)',
        params: idParams,
        response: { 200: supportRequestDetailSchema, ...errorResponses },
      },
    },
    async (request) => readForMember(app.db, caller(request), request.params.id),
  );

  app.post(
    '/portal/support/:id/reply',
    {
      config: {
        access: access.portalMember,
        ids: requestIds,
        example: { body: { message: 'It happened again today' } },
      },
      schema: {
        tags,
        summary: 'Add a message to a support request (its person, or an admin of its portal)',
        params: idParams,
        body: supportReplyInputSchema,
        response: { 201: supportRequestDetailSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const detail = await replyAsMember(
        app.db,
        app.support,
        caller(request),
        request.params.id,
        request.body,
      );
      return reply.status(201).send(detail);
    },
  );

  app.get(
    '/portal/support/:id/images/:imageId/:size',
    {
      config: { access: access.portalMember, ids: imageIds },
      schema: {
        tags,
        summary: "A support request's image (WebP, large or thumb): its person, its portal's admins",
        params: imageParams,
        produces: ['image/webp'],
        response: { 200: z.string().describe('The image as WebP'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id, imageId, size } = request.params;
      return sendImage(
        reply,
        await readImageForMember(app.db, app.support, caller(request), id, imageId, size),
      );
    },
  );

  // Platform staff: the inbox across portals.

  app.get(
    '/system/support',
    {
      config: { access: access.platform },
      schema: {
        tags,
        summary:
          'The support inbox (platform staff): every portal, filtered by status, type, portal, assignee',
        querystring: supportInboxQuerySchema,
        response: { 200: supportPageSchema, ...errorResponses },
      },
    },
    async (request) => listForStaff(app.db, signedIn(request).user, request.query),
  );

  app.get(
    '/system/support/:id',
    {
      config: { access: access.platform, ids: requestIds },
      schema: {
        tags,
        summary: 'A support request of any portal (platform staff)',
        params: idParams,
        response: { 200: supportRequestDetailSchema, ...errorResponses },
      },
    },
    async (request) => readForStaff(app.db, request.params.id),
  );

  app.post(
    '/system/support/:id',
    {
      config: { access: access.platform, ids: requestIds, example: { body: { status: 'closed' } } },
      schema: {
        tags,
        summary: 'Assign a support request and/or change its status (platform staff)',
        params: idParams,
        body: supportUpdateSchema,
        response: { 200: supportRequestDetailSchema, ...errorResponses },
      },
    },
    async (request) =>
      updateForStaff(app.db, signedIn(request).user, request.ip, request.params.id, request.body),
  );

  app.post(
    '/system/support/:id/reply',
    {
      config: {
        access: access.platform,
        ids: requestIds,
        example: { body: { message: 'Thanks, we reset the lock. Please try again.' } },
      },
      schema: {
        tags,
        summary: 'Answer a support request (platform staff): shown in the app and mailed to the person',
        params: idParams,
        body: supportReplyInputSchema,
        response: { 201: supportRequestDetailSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const detail = await replyAsStaff(
        app.db,
        app.support,
        signedIn(request).user,
        request.ip,
        request.params.id,
        request.body,
      );
      return reply.status(201).send(detail);
    },
  );

  app.get(
    '/system/support/:id/images/:imageId/:size',
    {
      config: { access: access.platform, ids: imageIds },
      schema: {
        tags,
        summary: "A support request's image (WebP, large or thumb), for platform staff",
        params: imageParams,
        produces: ['image/webp'],
        response: { 200: z.string().describe('The image as WebP'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id, imageId, size } = request.params;
      return sendImage(reply, await readImageForStaff(app.db, app.support, id, imageId, size));
    },
  );
};

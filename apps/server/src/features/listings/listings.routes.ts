import {
  accessListEntryInputSchema,
  accessListEntrySchema,
  idSchema,
  listingCategoryInputSchema,
  listingCategorySchema,
  listingInputSchema,
  listingSchema,
  listingsPageSchema,
  listingsQuerySchema,
  listingUserSchema,
  rentalImageSchema,
  rentalImageUpdateSchema,
  rentalImageUploadQuerySchema,
} from '@latchkey/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, routesOfFeature } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { errorResponses } from '../../base/http/responses';
import { assertPlanIncludes, planGatesOf } from '../subscriptions/plan-features';
import { IMAGE_MAX_BYTES, IMAGE_SIZES } from './image-processing';
import {
  createListing,
  deleteListing,
  getListing,
  getListings,
  requireListing,
  saveListing,
} from './listings.service';
import { createCategory, getCategories, removeCategory, saveCategory } from './categories.service';
import {
  createAccessListEntry,
  getAccessList,
  removeAccessListEntry,
  saveAccessListEntry,
} from './access-list.service';
import { deleteListingUser, getListingUsers, putListingUser } from './listing-users.service';
import { addImage, deleteImage, editImage, readImage } from './listing-images.service';
import { assertFeatureEnabled } from '../../base/feature-flags/feature-flags';

const id = idSchema;
const config = { access: access.portalAdmin };
const tags = ['listings'];
const idParams = z.object({ id });

/** The content types an image upload may come as; its bytes decide what it is (file-type). */
const IMAGE_CONTENT_TYPES = /^(image\/[a-z0-9.+-]+|application\/octet-stream)$/i;

/**
 * Lets the routes of `app` take an image's bytes as the body (besides JSON), up to the upload
 * limit; registered in the upload routes' own scope so every other route keeps the 1 MiB limit.
 */
export function acceptImageBodies(app: FastifyInstance): void {
  app.addContentTypeParser(
    IMAGE_CONTENT_TYPES,
    { parseAs: 'buffer', bodyLimit: IMAGE_MAX_BYTES + 1 },
    (_request, body, done) => done(null, body),
  );
}

/** The uploaded bytes; 415 for a body that was not sent as an image. */
export function uploadedBytes(request: FastifyRequest): Buffer {
  if (!Buffer.isBuffer(request.body)) {
    throw new AppError(
      'unsupported_media_type',
      'Send the image itself as the body (Content-Type image/…)',
      415,
    );
  }
  return request.body;
}

export const imageUploadDescription =
  'The body is the image itself (Content-Type image/jpeg, image/png, image/webp, image/gif or image/avif; at most 12 MB). It is checked by its bytes, turned upright, stripped of its metadata and stored as WebP at 1600 and 480 px.';

/** Listings, their categories, access lists, people and images (issue 12; admins of the portal). */
export const listingRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'listings');
  app.get(
    '/listing',
    {
      config,
      schema: {
        tags,
        summary: "A page of the portal's listings",
        querystring: listingsQuerySchema,
        response: { 200: listingsPageSchema, ...errorResponses },
      },
    },
    async (request) => getListings(app.db, actingPortal(request).portal.id, request.query),
  );
  app.post(
    '/listing/new',
    {
      config: {
        ...config,
        example: {
          body: { title: 'Flat', deviceIds: ['{deviceId}'], nightlyPrice: 12_000, currency: 'EUR' },
        },
      },
      schema: {
        tags,
        summary: 'Create a listing: one or more locks offered for stays',
        description:
          'Rentals are a plan feature: a portal whose plan does not include them (or is not paid up) gets 402 `payment_required` naming the plan that does, and nothing is stored.',
        body: listingInputSchema,
        response: { 201: listingSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const context = changeContext(request);
      await assertFeatureEnabled(app.db, context.portalId, 'rentals');
      await assertPlanIncludes(app.db, context.portalId, 'rentals', planGatesOf(app.config));
      return reply.status(201).send(await createListing(app.db, context, request.body));
    },
  );
  app.get(
    '/listing/:id',
    {
      config: { ...config, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary: 'A listing',
        params: idParams,
        response: { 200: listingSchema, ...errorResponses },
      },
    },
    async (request) => getListing(app.db, actingPortal(request).portal.id, request.params.id),
  );
  app.post(
    '/listing/:id',
    {
      config: {
        ...config,
        example: {
          body: { title: 'Flat', deviceIds: ['{deviceId}'], nightlyPrice: 12_000, currency: 'EUR' },
        },
        ids: { id: 'listingId' },
      },
      schema: {
        tags,
        summary: "Save a listing; its stays' access follows new locks and times at once",
        params: idParams,
        body: listingInputSchema,
        response: { 200: listingSchema, ...errorResponses },
      },
    },
    async (request) => saveListing(app.db, changeContext(request), request.params.id, request.body),
  );
  app.delete(
    '/listing/:id',
    {
      config: { ...config, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary: 'Delete a listing (409 while it has stays that have not ended)',
        params: idParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteListing(app.db, changeContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  // Categories (listingCategory)
  app.get(
    '/listingCategory',
    {
      config,
      schema: {
        tags,
        summary: "The portal's listing categories, by name",
        response: { 200: z.array(listingCategorySchema), ...errorResponses },
      },
    },
    async (request) => getCategories(app.db, actingPortal(request).portal.id),
  );
  app.post(
    '/listingCategory/new',
    {
      config,
      schema: {
        tags,
        summary: 'Create a listing category',
        body: listingCategoryInputSchema,
        response: { 201: listingCategorySchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createCategory(app.db, changeContext(request), request.body.name)),
  );
  app.post(
    '/listingCategory/:id',
    {
      config: { ...config, example: { body: { name: 'Renamed' } }, ids: { id: 'categoryId' } },
      schema: {
        tags,
        summary: 'Rename a listing category',
        params: idParams,
        body: listingCategoryInputSchema,
        response: { 200: listingCategorySchema, ...errorResponses },
      },
    },
    async (request) => saveCategory(app.db, changeContext(request), request.params.id, request.body.name),
  );
  app.delete(
    '/listingCategory/:id',
    {
      config: { ...config, ids: { id: 'categoryId' } },
      schema: {
        tags,
        summary: 'Delete a listing category (its listings keep going without one)',
        params: idParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeCategory(app.db, changeContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  // Access list (listingAccessList)
  const entryParams = z.object({ id, entryId: id });
  app.get(
    '/listing/:id/accessList',
    {
      config: { ...config, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary: 'Who else gets the locks around every stay (the cleaner after check-out)',
        params: idParams,
        response: { 200: z.array(accessListEntrySchema), ...errorResponses },
      },
    },
    async (request) => getAccessList(app.db, actingPortal(request).portal.id, request.params.id),
  );
  app.post(
    '/listing/:id/accessList/new',
    {
      config: { ...config, example: { body: { name: 'Cleaner' } }, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary: 'Add someone to the access list; current and upcoming stays give them a code at once',
        params: idParams,
        body: accessListEntryInputSchema,
        response: { 201: accessListEntrySchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await createAccessListEntry(app.db, changeContext(request), request.params.id, request.body)),
  );
  app.post(
    '/listing/:id/accessList/:entryId',
    {
      config: { ...config, example: { body: { name: 'Renamed' } }, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary: 'Change an access list entry; its windows move at once',
        params: entryParams,
        body: accessListEntryInputSchema,
        response: { 200: accessListEntrySchema, ...errorResponses },
      },
    },
    async (request) =>
      saveAccessListEntry(
        app.db,
        changeContext(request),
        request.params.id,
        request.params.entryId,
        request.body,
      ),
  );
  app.delete(
    '/listing/:id/accessList/:entryId',
    {
      config: { ...config, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary: 'Remove an access list entry; its codes stop working',
        params: entryParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeAccessListEntry(app.db, changeContext(request), request.params.id, request.params.entryId);
      return reply.status(204).send(null);
    },
  );

  // Listing users (listingUser)
  const userParams = z.object({ id, userId: id });
  app.get(
    '/listing/:id/users',
    {
      config: { ...config, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary: "The people who look after a listing (they get its requests' mail)",
        params: idParams,
        response: { 200: z.array(listingUserSchema), ...errorResponses },
      },
    },
    async (request) => getListingUsers(app.db, actingPortal(request).portal.id, request.params.id),
  );
  app.put(
    '/listing/:id/user/:userId',
    {
      config: { ...config, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary: 'A person of the portal looks after the listing',
        params: userParams,
        response: { 200: z.array(listingUserSchema), ...errorResponses },
      },
    },
    async (request) =>
      putListingUser(app.db, changeContext(request), request.params.id, request.params.userId),
  );
  app.delete(
    '/listing/:id/user/:userId',
    {
      config: { ...config, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary: 'A person no longer looks after the listing',
        params: userParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteListingUser(app.db, changeContext(request), request.params.id, request.params.userId);
      return reply.status(204).send(null);
    },
  );

  // Images (userImages)
  const imageParams = z.object({ id, imageId: id });
  await app.register(async (scope) => {
    acceptImageBodies(scope);
    const uploads = scope.withTypeProvider<ZodTypeProvider>();
    uploads.post(
      '/listing/:id/image',
      {
        config: { ...config, ids: { id: 'listingId' } },
        bodyLimit: IMAGE_MAX_BYTES + 1,
        schema: {
          tags,
          summary: 'Add an image to a listing (at the end of its order)',
          description: imageUploadDescription,
          params: idParams,
          querystring: rentalImageUploadQuerySchema,
          response: { 201: rentalImageSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const context = changeContext(request);
        const listing = await requireListing(app.db, context.portalId, request.params.id);
        const image = await addImage(
          app.db,
          app.rental.images,
          context,
          { type: 'listing', id: listing.id, label: listing.title },
          uploadedBytes(request),
          request.query.alt,
        );
        return reply.status(201).send(image);
      },
    );
  });
  app.post(
    '/listing/:id/image/:imageId',
    {
      config: {
        ...config,
        example: { body: { alt: 'Renamed' } },
        ids: { id: 'listingId', imageId: 'listingImageId' },
      },
      schema: {
        tags,
        summary: "Change an image's alt text or position",
        params: imageParams,
        body: rentalImageUpdateSchema,
        response: { 200: rentalImageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const context = changeContext(request);
      await requireListing(app.db, context.portalId, request.params.id);
      return editImage(
        app.db,
        context,
        { type: 'listing', id: request.params.id },
        request.params.imageId,
        request.body,
      );
    },
  );
  app.delete(
    '/listing/:id/image/:imageId',
    {
      config: { ...config, ids: { id: 'listingId', imageId: 'listingImageId' } },
      schema: {
        tags,
        summary: 'Remove an image',
        params: imageParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const context = changeContext(request);
      await requireListing(app.db, context.portalId, request.params.id);
      await deleteImage(
        app.db,
        app.rental.images,
        context,
        { type: 'listing', id: request.params.id },
        request.params.imageId,
      );
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/image/:portalId/:imageId/:size',
    {
      config: { access: access.public, ids: { imageId: 'listingImageId' } },
      schema: {
        tags,
        summary: 'An image (WebP), for anyone holding its address (listing pages, arrival instructions)',
        params: z.object({
          portalId: id,
          imageId: id,
          size: z.enum(Object.keys(IMAGE_SIZES) as ['large', 'thumb']),
        }),
        produces: ['image/webp'],
        response: { 200: z.string().describe('The image as WebP'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { portalId, imageId, size } = request.params;
      const image = await readImage(app.db, app.rental.images, portalId, imageId, size);
      // An image's bytes never change under its id, but it stops being served when its listing is
      // deleted: kept by browsers and shared caches for a day, not a year.
      return (
        reply
          .header('cache-control', 'public, max-age=86400')
          .type(image.contentType)
          // Bytes go out as they are; the schema (a string) only documents the answer.
          .send(image.bytes as unknown as string)
      );
    },
  );
};

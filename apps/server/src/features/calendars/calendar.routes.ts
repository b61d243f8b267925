import {
  calendarActionSchema,
  calendarChangeSchema,
  calendarQuerySchema,
  icalFeedInputSchema,
  icalFeedSchema,
  icalSyncInputSchema,
  idSchema,
  listingCalendarSchema,
  listingIcalSchema,
  upcomingPageSchema,
  upcomingQuerySchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { changeCalendar, getListingCalendar, getUpcoming } from './calendar.service';
import { exportFeed } from './ical-export.service';
import {
  createFeed,
  getListingIcal,
  removeFeed,
  rotateExport,
  requestSync,
  saveFeed,
} from './ical-feeds.service';

const id = idSchema;
const tags = ['calendars'];
const admin = { access: access.portalAdmin };
const idParams = z.object({ id });
const feedParams = z.object({ id, feedId: id });

/**
 * Calendars and iCal (issue 12, R2). `device/{id}/calendar` names a listing, as the share-lock
 * calls about stays do (`device/{id}/sharelock`, `device/{id}/request/{reqId}`); the feeds live
 * under the listing (`listing/{id}/ical…`); the export feed is public at `ical/{token}.ics`.
 */
export const calendarRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'calendars');
  app.get(
    '/device/:id/calendar',
    {
      config: { ...admin, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary:
          "A listing's calendar: bookings, pending requests, blocked nights and the access windows the bookings give",
        description:
          '`from`/`to`: the nights shown (to excluded, at most 400 days); default this month and the next two. Imported reservations that overlap another booking or a block list it in `overlaps`.',
        params: idParams,
        querystring: calendarQuerySchema,
        response: { 200: listingCalendarSchema, ...errorResponses },
      },
    },
    async (request) =>
      getListingCalendar(app.db, actingPortal(request).portal.id, request.params.id, request.query),
  );

  app.post(
    '/device/:id/calendar',
    {
      config: {
        ids: { id: 'listingId' },
        ...admin,
        example: {
          body: {
            action: 'block',
            startDate: '2031-01-01',
            endDate: '2031-01-03',
          },
        },
      },
      schema: {
        tags,
        summary:
          'Block nights of a listing (closed to requests, exported as not available) or open a block again',
        description: 'A block over an approved stay is refused (409): cancel or change the stay instead.',
        params: idParams,
        body: calendarActionSchema,
        response: { 200: calendarChangeSchema, ...errorResponses },
      },
    },
    async (request) => changeCalendar(app.db, changeContext(request), request.params.id, request.body),
  );

  app.get(
    '/calendar/upcoming',
    {
      config: admin,
      schema: {
        tags,
        summary:
          "The portal's next arrivals and departures (today on each listing's calendar, up to `days` ahead)",
        querystring: upcomingQuerySchema,
        response: { 200: upcomingPageSchema, ...errorResponses },
      },
    },
    async (request) => getUpcoming(app.db, actingPortal(request).portal.id, request.query),
  );

  app.get(
    '/listing/:id/ical',
    {
      config: { ...admin, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary: "A listing's private export feed address and its imported calendars with their sync state",
        params: idParams,
        response: { 200: listingIcalSchema, ...errorResponses },
      },
    },
    async (request) =>
      getListingIcal(app.db, app.ical.deps, actingPortal(request).portal.id, request.params.id),
  );

  app.post(
    '/listing/:id/ical/rotate',
    {
      config: { ...admin, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary:
          'A new export feed address; the old one stops at once (paste the new one into each platform)',
        params: idParams,
        response: { 200: listingIcalSchema, ...errorResponses },
      },
    },
    async (request) => rotateExport(app.db, app.ical.deps, changeContext(request), request.params.id),
  );

  app.post(
    '/listing/:id/ical/feed/new',
    {
      config: {
        ...admin,
        example: { body: { name: 'Vrbo', url: 'https://vrbo.example.invalid/a.ics' } },
        ids: { id: 'listingId' },
      },
      schema: {
        tags,
        summary:
          "Import another platform's calendar (its iCal export address); read at once and then periodically",
        params: idParams,
        body: icalFeedInputSchema,
        response: { 201: icalFeedSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await createFeed(app.db, app.ical.deps, changeContext(request), request.params.id, request.body),
        ),
  );

  app.post(
    '/listing/:id/ical/feed/:feedId',
    {
      config: {
        ids: { id: 'listingId' },
        ...admin,
        example: {
          body: {
            name: 'Renamed',
            url: 'https://calendar.example.invalid/private.ics',
          },
        },
      },
      schema: {
        tags,
        summary: 'Rename an imported calendar, or change its address or how its events are read',
        params: feedParams,
        body: icalFeedInputSchema,
        response: { 200: icalFeedSchema, ...errorResponses },
      },
    },
    async (request) =>
      saveFeed(
        app.db,
        app.ical.deps,
        changeContext(request),
        request.params.id,
        request.params.feedId,
        request.body,
      ),
  );

  app.delete(
    '/listing/:id/ical/feed/:feedId',
    {
      config: { ...admin, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary: 'Stop importing a calendar (its blocks go; the stays it brought stay, with their codes)',
        params: feedParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeFeed(app.db, changeContext(request), request.params.id, request.params.feedId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/listing/:id/ical/feed/:feedId/sync',
    {
      config: { ...admin, ids: { id: 'listingId' } },
      schema: {
        tags,
        summary: 'Read an imported calendar now (queued: the import job reads it in the background)',
        description:
          'Answers 202 with the feed (`syncing` true) at once; the read runs in the background import job, and the feed shows its outcome when it ends (`lastResult`, `lastError`, `lastWarning`). A read that fails, or is empty where the calendar had events, changes nothing. `acceptEmpty` applies an empty calendar (every reservation there was cancelled). 409 while a read of it runs; once per feed a minute (ICAL_SYNC_NOW_SECONDS), 429 with Retry-After sooner.',
        params: feedParams,
        body: icalSyncInputSchema,
        response: { 202: icalFeedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const feed = await requestSync(
        app.db,
        app.ical.deps,
        changeContext(request),
        request.params.id,
        request.params.feedId,
        request.body.acceptEmpty ?? false,
      );
      app.ical.importer.wake();
      return reply.status(202).send(feed);
    },
  );

  app.get(
    '/ical/:feed',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary:
          "A listing's private export feed (RFC 5545) for Airbnb, Vrbo or Booking.com to import: dates only, no names or codes",
        description:
          'The address is the secret (GET listing/{id}/ical); rotating it ends the old one. Answers 304 to a matching If-None-Match.',
        params: z.object({
          feed: z
            .string()
            .max(200)
            .regex(/^[A-Za-z0-9._-]+\.ics$/, 'is not a calendar feed address'),
        }),
        produces: ['text/calendar'],
        response: { 200: z.string().describe('The calendar, text/calendar'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const token = request.params.feed.slice(0, -'.ics'.length);
      const feed = await exportFeed(app.db, app.ical.deps, token);
      reply.header('etag', feed.etag).header('cache-control', 'private, max-age=0, must-revalidate');
      if (request.headers['if-none-match'] === feed.etag) return reply.status(304).send('');
      return (
        reply
          .type('text/calendar; charset=utf-8')
          .header('content-disposition', 'inline; filename="calendar.ics"')
          // The text goes out as it is; the schema (a string) only documents the answer.
          .send(Buffer.from(feed.body, 'utf8') as unknown as string)
      );
    },
  );
};

import {
  idSchema,
  lockoutRecordSchema,
  zoneDeviceSchema,
  zoneInputSchema,
  zoneLockoutInputSchema,
  zoneMovedSchema,
  zoneMoveSchema,
  zoneSchema,
  zonesSchema,
  zoneTimeZoneAppliedSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { access, actingPortal, changeContext, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import {
  applyZoneTimeZone,
  createZone,
  getDevicesOutsideZone,
  getZone,
  getZoneDevices,
  getZones,
  lockOutZone,
  moveZoneDevices,
  removeZone,
  saveZone,
} from './zones.service';

const params = z.object({ id: idSchema });
const admin = { access: access.portalAdmin };
const member = { access: access.portalMember };
const ids = { id: 'zoneId' } as const;
const tags = ['zones'];

/** Zones (issue 21, item 4): a portal's locks grouped into places; admins write, members read. */
export const zoneRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'zones');
  const portalOf = (request: FastifyRequest) => actingPortal(request).portal.id;
  const isAdmin = (request: FastifyRequest) => actingPortal(request).role === 'admin';

  app.get(
    '/portal/zones',
    {
      config: member,
      schema: {
        tags,
        summary: "The portal's zones, each parent before its sub-zones (lock counts for admins)",
        response: { 200: zonesSchema, ...errorResponses },
      },
    },
    async (request) => getZones(app.db, portalOf(request), isAdmin(request)),
  );

  app.post(
    '/portal/zone',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Create a zone',
        body: zoneInputSchema,
        response: { 201: zoneSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createZone(app.db, changeContext(request), request.body)),
  );

  app.get(
    '/portal/zone/:id',
    {
      config: { ...member, ids },
      schema: { tags, summary: 'A zone', params, response: { 200: zoneSchema, ...errorResponses } },
    },
    async (request) => getZone(app.db, portalOf(request), request.params.id, isAdmin(request)),
  );

  app.post(
    '/portal/zone/:id',
    {
      config: { ...admin, ids, example: { body: { name: 'Renamed', timeZone: 'Europe/Berlin' } } },
      schema: {
        tags,
        summary: 'Change a zone (its locks keep their own time zone: see POST zone/{id}/applyTimeZone)',
        params,
        body: zoneInputSchema,
        response: { 200: zoneSchema, ...errorResponses },
      },
    },
    async (request) => saveZone(app.db, changeContext(request), request.params.id, request.body),
  );

  app.delete(
    '/portal/zone/:id',
    {
      config: { ...admin, ids },
      schema: {
        tags,
        summary: 'Delete a zone (its locks become unzoned, its sub-zones move up)',
        params,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeZone(app.db, changeContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/zone/:id/devices',
    {
      config: { ...admin, ids },
      schema: {
        tags,
        summary: 'The locks directly in a zone',
        params,
        response: { 200: z.array(zoneDeviceSchema), ...errorResponses },
      },
    },
    async (request) => getZoneDevices(app.db, portalOf(request), request.params.id),
  );

  app.get(
    '/zone/:id/possibleDevices',
    {
      config: { ...admin, ids },
      schema: {
        tags,
        summary: 'The locks not in a zone (unzoned or in another zone)',
        params,
        response: { 200: z.array(zoneDeviceSchema), ...errorResponses },
      },
    },
    async (request) => getDevicesOutsideZone(app.db, portalOf(request), request.params.id),
  );

  app.post(
    '/zone/:id/devices',
    {
      config: { ...admin, ids, example: { body: { add: ['{deviceId}'], applyTimeZone: true } } },
      schema: {
        tags,
        summary: 'Move locks into a zone (out of any other) and out of it',
        params,
        body: zoneMoveSchema,
        response: { 200: zoneMovedSchema, ...errorResponses },
      },
    },
    async (request) => moveZoneDevices(app.db, changeContext(request), request.params.id, request.body),
  );

  app.post(
    '/zone/:id/applyTimeZone',
    {
      config: { ...admin, ids },
      schema: {
        tags,
        summary: "Give every lock directly in the zone the zone's time zone",
        params,
        response: { 200: zoneTimeZoneAppliedSchema, ...errorResponses },
      },
    },
    async (request) => applyZoneTimeZone(app.db, changeContext(request), request.params.id),
  );

  app.post(
    '/zone/:id/lockout',
    {
      config: { ...admin, ids, example: { body: { name: 'Fire drill', from: '2030-01-01T00:00:00Z' } } },
      schema: {
        tags,
        summary: 'Lock out a zone: a lockout of its locks and its sub-zones’, which follows the zone',
        params,
        body: zoneLockoutInputSchema,
        response: { 201: lockoutRecordSchema, ...errorResponses },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await lockOutZone(app.db, changeContext(request), request.params.id, request.body)),
  );
};

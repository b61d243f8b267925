import {
  deviceAccessQuerySchema,
  deviceAccessSchema,
  deviceUserSchema,
  directAccessInputSchema,
  groupUserSchema,
  idSchema,
  memberAccessTimeSchema,
  memberDeviceSchema,
  userScheduleInputSchema,
  userScheduleSchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  access,
  actingPortal,
  changeContext,
  requireSelfOrAdmin,
  routesOfFeature,
} from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import {
  getDeviceAccessAt,
  getDeviceUsers,
  getPossibleDeviceUsers,
  getUserAccessTime,
  getUserDevices,
  getUserSchedule,
  grantDirectAccess,
  revokeDirectAccess,
  setUserSchedule,
} from './access.service';

const id = idSchema;
const config = { access: access.portalAdmin };
/** What a person may read about themselves (the basic-user area); admins about anyone. */
const selfConfig = { access: access.portalMember };
const tags = ['access'];

/** Who may use which lock, when (brief §7 Devices and Users: schedules, device users, user devices). */
export const accessRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'access');
  const portalOf = (request: Parameters<typeof actingPortal>[0]) => actingPortal(request).portal.id;

  app.get(
    '/device/:id/users',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: 'The people who may use a lock, how, and their schedule there',
        params: z.object({ id }),
        response: { 200: z.array(deviceUserSchema), ...errorResponses },
      },
    },
    async (request) => getDeviceUsers(app.db, portalOf(request), request.params.id),
  );

  app.get(
    '/device/:id/possibleUsers',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: 'Members who cannot use the lock yet',
        params: z.object({ id }),
        response: { 200: z.array(groupUserSchema), ...errorResponses },
      },
    },
    async (request) => getPossibleDeviceUsers(app.db, portalOf(request), request.params.id),
  );

  app.get(
    '/portal/device/:id/access',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: 'Who can open the lock at an instant (default now), and why the others cannot',
        params: z.object({ id }),
        querystring: deviceAccessQuerySchema,
        response: { 200: deviceAccessSchema, ...errorResponses },
      },
    },
    async (request) =>
      getDeviceAccessAt(
        app.db,
        portalOf(request),
        request.params.id,
        request.query.at ? new Date(request.query.at) : new Date(),
      ),
  );

  const scheduleParams = z.object({ id, userId: id });
  app.get(
    '/portal/device/:id/schedule/:userId',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: "A person's schedule at a lock (null: at any time)",
        params: scheduleParams,
        response: { 200: userScheduleSchema, ...errorResponses },
      },
    },
    async (request) => getUserSchedule(app.db, portalOf(request), request.params.id, request.params.userId),
  );

  app.post(
    '/portal/device/:id/schedule/:userId',
    {
      config: { ...config, example: { body: { schedule: null } }, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: "Set a person's schedule at a lock they can reach (null: at any time)",
        params: scheduleParams,
        body: userScheduleInputSchema,
        response: { 200: userScheduleSchema, ...errorResponses },
      },
    },
    async (request) =>
      setUserSchedule(
        app.db,
        changeContext(request),
        request.params.id,
        request.params.userId,
        request.body.schedule,
      ),
  );

  const linkParams = z.object({ id, deviceId: id });
  app.put(
    '/user/:id/device/:deviceId',
    {
      config: {
        ...config,
        ids: { id: 'userId' },
        example: {
          body: { schedule: { windows: [{ days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00' }] } },
        },
      },
      schema: {
        tags,
        summary:
          'Give a person direct access to a lock, optionally with their schedule there (undo of a removal)',
        params: linkParams,
        // No body at all (null) is a plain grant, as before.
        body: directAccessInputSchema.nullish(),
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await grantDirectAccess(
        app.db,
        changeContext(request),
        request.params.deviceId,
        request.params.id,
        request.body?.schedule,
      );
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/user/:id/device/:deviceId',
    {
      config: { ...config, ids: { id: 'userId' } },
      schema: {
        tags,
        summary: "Remove a person's direct access to a lock (access through groups stays)",
        params: linkParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await revokeDirectAccess(app.db, changeContext(request), request.params.deviceId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/user/:id/devices',
    {
      config: { ...selfConfig, ids: { id: 'userId' } },
      schema: {
        tags,
        summary: 'The locks a person can reach, how and when',
        params: z.object({ id }),
        response: { 200: z.array(memberDeviceSchema), ...errorResponses },
      },
    },
    async (request) => {
      requireSelfOrAdmin(request, request.params.id);
      return getUserDevices(app.db, portalOf(request), request.params.id);
    },
  );

  app.get(
    '/user/:id/accessTime',
    {
      config: { ...selfConfig, ids: { id: 'userId' } },
      schema: {
        tags,
        summary: 'Whether the person can open each of their locks at an instant (default now), and why not',
        params: z.object({ id }),
        querystring: deviceAccessQuerySchema,
        response: { 200: memberAccessTimeSchema, ...errorResponses },
      },
    },
    async (request) => {
      requireSelfOrAdmin(request, request.params.id);
      return getUserAccessTime(
        app.db,
        portalOf(request),
        request.params.id,
        request.query.at ? new Date(request.query.at) : new Date(),
      );
    },
  );
};

import {
  deviceCreatedSchema,
  deviceCreateSchema,
  deviceSchema,
  devicesPageSchema,
  devicesQuerySchema,
  deviceUpdateSchema,
  idSchema,
  lowBatteryQuerySchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, actingPortal, changeContext, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { lockAllowanceOf } from '../subscriptions/plan-allowance';
import { keepQuantityInStep } from '../subscriptions/subscription-upkeep';
import { toDevice } from './device.presenter';
import { listGroupsOfDevice, listLowBatteryDevices } from './devices.repository';
import { createDevice, getDevice, getDevicesPage, removeDevice, saveDevice } from './devices.service';

const idParams = z.object({ id: idSchema });
const config = { access: access.portalAdmin };
const tags = ['devices'];

/** Locks: add, list, read, change, delete (brief §7 Devices). */
export const deviceRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'devices');
  app.get(
    '/portal/devices',
    {
      config,
      schema: {
        tags,
        summary: "A page of the portal's locks",
        querystring: devicesQuerySchema,
        response: { 200: devicesPageSchema, ...errorResponses },
      },
    },
    async (request) => getDevicesPage(app.db, actingPortal(request).portal.id, request.query),
  );

  app.post(
    '/portal/device/new',
    {
      config,
      schema: {
        tags,
        summary: 'Add a lock; answers its device secret this once',
        body: deviceCreateSchema,
        response: { 201: deviceCreatedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const context = changeContext(request);
      const created = await createDevice(
        app.db,
        context,
        request.body,
        undefined,
        lockAllowanceOf(app.config),
      );
      // A running subscription's quantity follows the lock count (subscription-upkeep.ts).
      await keepQuantityInStep(app.db, app.payments, context.portalId);
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/portal/device/battery/low',
    {
      config,
      schema: {
        tags,
        summary: 'Locks whose battery is below a level (default: each lock’s own low level)',
        querystring: lowBatteryQuerySchema,
        response: { 200: z.array(deviceSchema), ...errorResponses },
      },
    },
    async (request) =>
      (await listLowBatteryDevices(app.db, actingPortal(request).portal.id, request.query.level)).map(
        toDevice,
      ),
  );

  app.get(
    '/portal/device/:id',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: 'A lock',
        params: idParams,
        response: { 200: deviceSchema, ...errorResponses },
      },
    },
    async (request) => getDevice(app.db, actingPortal(request).portal.id, request.params.id),
  );

  app.get(
    '/portal/device/:id/name',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: "A lock's name",
        params: idParams,
        response: { 200: z.object({ _id: z.string(), name: z.string() }), ...errorResponses },
      },
    },
    async (request) => {
      const device = await getDevice(app.db, actingPortal(request).portal.id, request.params.id);
      return { _id: device._id, name: device.name };
    },
  );

  app.get(
    '/portal/device/:id/groups',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: 'The groups that open a lock',
        params: idParams,
        response: { 200: z.array(z.object({ _id: z.string(), name: z.string() })), ...errorResponses },
      },
    },
    async (request) => {
      const portalId = actingPortal(request).portal.id;
      await getDevice(app.db, portalId, request.params.id);
      return (await listGroupsOfDevice(app.db, portalId, request.params.id)).map((g) => ({
        _id: g.id,
        name: g.name,
      }));
    },
  );

  app.post(
    '/portal/device/:id',
    {
      config: { ...config, example: { body: { name: 'Renamed' } }, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: "Change a lock's name, time zone or low-battery level",
        params: idParams,
        body: deviceUpdateSchema,
        response: { 200: deviceSchema, ...errorResponses },
      },
    },
    async (request) => saveDevice(app.db, changeContext(request), request.params.id, request.body),
  );

  app.delete(
    '/portal/device/:id',
    {
      config: { ...config, ids: { id: 'deviceId' } },
      schema: {
        tags,
        summary: 'Delete a lock: access to it goes, its history stays',
        params: idParams,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      const context = changeContext(request);
      await removeDevice(app.db, context, request.params.id);
      // The lock's secret no longer authenticates (it is deleted); end the connection it still has.
      await app.deviceLink.deviceDeleted(request.params.id);
      await keepQuantityInStep(app.db, app.payments, context.portalId);
      return reply.status(204).send(null);
    },
  );
};

import {
  deviceCreatedSchema,
  deviceCreateSchema,
  deviceSchema,
  devicesQuerySchema,
  deviceUpdateSchema,
} from '@latchkey/shared';
import {
  createDevice,
  getDevice,
  getDevicesPage,
  removeDevice,
  saveDevice,
} from '../devices/devices.service';
import { lockAllowanceOf } from '../subscriptions/plan-allowance';
import { keepQuantityInStep } from '../subscriptions/subscription-upkeep';
import { defineCollection } from './registry';

/**
 * `crudDevices`: adding, changing and deleting the portal's locks, for admins (features/devices),
 * with what the REST routes do around it: the plan's lock allowance, the running subscription's
 * quantity, and a deleted lock's connection ended.
 */
export const crudDevicesCollection = defineCollection({
  name: 'crudDevices',
  feature: 'devices',
  idKind: 'deviceId',
  record: deviceSchema,
  get: {
    access: 'admin',
    summary: 'A lock (as GET portal/device/{id})',
    handler: (caller, id) => getDevice(caller.db, caller.portalId, id),
  },
  list: {
    access: 'admin',
    summary: "A page of the portal's locks (as GET portal/devices)",
    filter: devicesQuerySchema,
    handler: (caller, query) => getDevicesPage(caller.db, caller.portalId, query),
  },
  create: {
    access: 'admin',
    summary: 'Add a lock; answers its device secret this once (as POST portal/device/new)',
    body: deviceCreateSchema,
    example: { name: 'Collection lock', model: 'latchkey-sim', timeZone: 'Europe/Berlin' },
    answer: deviceCreatedSchema,
    handler: async (caller, body) => {
      const context = caller.change();
      const created = await createDevice(
        caller.db,
        context,
        body,
        undefined,
        lockAllowanceOf(caller.app.config),
      );
      await keepQuantityInStep(caller.db, caller.app.payments, context.portalId);
      return created;
    },
  },
  save: {
    access: 'admin',
    summary: "Change a lock's name, time zone or low-battery level (as POST portal/device/{id})",
    body: deviceUpdateSchema,
    example: { name: 'Renamed by collection' },
    handler: (caller, id, body) => saveDevice(caller.db, caller.change(), id, body),
  },
  remove: {
    access: 'admin',
    summary: 'Delete a lock: access to it goes, its history stays (as DELETE portal/device/{id})',
    handler: async (caller, id) => {
      const context = caller.change();
      await removeDevice(caller.db, context, id);
      await caller.app.deviceLink.deviceDeleted(id);
      await keepQuantityInStep(caller.db, caller.app.payments, context.portalId);
    },
  },
  ls: { access: 'admin', summary: 'Locks added, changed and deleted since a cursor' },
});

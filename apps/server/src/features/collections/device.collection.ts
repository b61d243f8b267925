import {
  collectionCommandBodySchema,
  deviceCommandRecordSchema,
  deviceSchema,
  devicesQuerySchema,
  deviceSyncSchema,
  deviceUpdateSchema,
  type Device,
} from '@latchkey/shared';
import { AppError } from '../../base/http/errors';
import { assertMaySendCommand, getUserDevices } from '../access/access.service';
import { getDeviceSync } from '../device-link/credential-sync.service';
import { getDevice, getDevicesPage, saveDevice } from '../devices/devices.service';
import { pageOfOwn } from './member-pages';
import { collectionMethod, defineCollection, type CollectionCaller } from './registry';

/** The ids of the locks a basic user reaches (directly or through groups). */
async function reachableIds(caller: CollectionCaller): Promise<Set<string>> {
  return new Set((await getUserDevices(caller.db, caller.portalId, caller.userId)).map((d) => d._id));
}

/** A lock the caller may read: admins any of the portal's, a basic user one they reach. */
async function readableDevice(caller: CollectionCaller, id: string): Promise<Device> {
  if (caller.role !== 'admin' && !(await reachableIds(caller)).has(id)) throw AppError.notFound('Lock');
  return getDevice(caller.db, caller.portalId, id);
}

/** A remote unlock or lock, exactly as POST device/{id}/command (features/device-link). */
function command(action: 'unlock' | 'lock') {
  return collectionMethod({
    access: 'member',
    summary: `${action === 'unlock' ? 'Unlock' : 'Lock'} the lock remotely (as POST device/{id}/command: a basic user only when they may open it now; 409 lock_offline when it is not connected; 409 lockout_in_effect for an admin's unlock during a lockout that keeps admins out)`,
    body: collectionCommandBodySchema,
    example: {},
    answer: deviceCommandRecordSchema,
    status: 202,
    handler: async (caller, id) => {
      await assertMaySendCommand(
        caller.db,
        caller.portalId,
        id,
        { isAdmin: caller.role === 'admin', userId: caller.userId },
        action,
        new Date(),
      );
      return caller.app.deviceLink.sendCommand(caller.change(), id, { action });
    },
  });
}

/**
 * `device`: the portal's locks as people use them (features/devices, features/device-link). Admins
 * read and change every lock; a basic user reads the locks they reach and opens them remotely
 * when they may. Adding and deleting locks is `crudDevices`.
 */
export const deviceCollection = defineCollection({
  name: 'device',
  feature: 'devices',
  idKind: 'deviceId',
  record: deviceSchema,
  get: {
    access: 'member',
    summary: 'A lock (a basic user: one they reach)',
    handler: readableDevice,
  },
  list: {
    access: 'member',
    summary: "A page of the portal's locks (a basic user: the locks they reach)",
    filter: devicesQuerySchema,
    handler: async (caller, query) => {
      if (caller.role === 'admin') return getDevicesPage(caller.db, caller.portalId, query);
      const ids = [...(await reachableIds(caller))];
      const devices = await Promise.all(ids.map((id) => getDevice(caller.db, caller.portalId, id)));
      return pageOfOwn(devices, query, {
        text: (d) => `${d.name} ${d.serial ?? ''}`,
        sortKey: (d, key) => (d[key as keyof Device] ?? null) as string | number | null,
        filterKey: (d, key) => (key === 'online' ? String(d.online) : String(d[key as keyof Device])),
        defaultSortBy: 'name',
      });
    },
  },
  save: {
    access: 'admin',
    summary: "Change a lock's name, time zone or low-battery level (as POST portal/device/{id})",
    body: deviceUpdateSchema,
    example: { name: 'Renamed by collection' },
    handler: (caller, id, body) => saveDevice(caller.db, caller.change(), id, body),
  },
  methods: {
    unlock: command('unlock'),
    lock: command('lock'),
    sync: collectionMethod({
      access: 'admin',
      summary:
        "The lock's credential sync (as GET device/{id}/sync): desired, sent and confirmed version, refused entries",
      body: collectionCommandBodySchema,
      example: {},
      answer: deviceSyncSchema,
      handler: (caller, id) => getDeviceSync(caller.db, caller.portalId, id),
    }),
  },
  ls: {
    access: 'member',
    summary: 'Locks changed and deleted since a cursor (a basic user: the locks they reach)',
  },
});

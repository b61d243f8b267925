import { deviceEventSchema, deviceLogsQuerySchema, type DeviceEvent } from '@latchkey/shared';
import { getDeviceLogs, getStoredDeviceEvent } from '../events/events.service';
import { defineCollection } from './registry';

/**
 * `history`: what the locks reported (features/events), newest first. Admins read the portal's; a
 * basic user the events their own credentials caused. Events are never edited: `ls` hears of new
 * ones and of those gone with their lock. There is no GET by id (a lock names its events by its own
 * id; the logs filter by lock, person and type).
 */
export const historyCollection = defineCollection({
  name: 'history',
  feature: 'events',
  idKind: 'deviceId',
  record: deviceEventSchema,
  list: {
    access: 'member',
    summary: "A page of the locks' events (as GET portal/device/logs; a basic user: their own)",
    filter: deviceLogsQuerySchema,
    handler: (caller, query) =>
      getDeviceLogs(
        caller.db,
        caller.portalId,
        caller.role === 'admin' ? query : { ...query, filterBy: 'userId', filterValue: caller.userId },
      ),
  },
  ls: {
    access: 'member',
    summary: 'Lock events recorded since a cursor (a basic user: their own)',
    load: async (caller, ids) => {
      const rows = await caller.db
        .selectFrom('device_events')
        .select(['device_id', 'event_id'])
        .where('portal_id', '=', caller.portalId)
        .where('id', 'in', ids)
        .execute();
      const events = await Promise.all(
        rows.map((row) => getStoredDeviceEvent(caller.db, caller.portalId, row.device_id, row.event_id)),
      );
      return events.filter(
        (event): event is DeviceEvent =>
          event !== undefined && (caller.role === 'admin' || event.user?._id === caller.userId),
      );
    },
  },
});

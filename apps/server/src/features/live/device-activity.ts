import type { DeviceEvent } from '@latchkey/shared';
import DataLoader from 'dataloader';
import type { FastifyInstance } from 'fastify';
import { inList } from '../../db/statement-shapes';
import type { DeviceRow } from '../../db/schema';
import type { LockActivityListener } from '../device-link/device-link.service';
import { toDevice } from '../devices/device.presenter';
import { findDevices } from '../devices/devices.repository';

interface LockKey {
  portalId: string;
  deviceId: string;
}

/**
 * What locks report, onto the live channel: each stored event and each status change, as the
 * screens show them, so device screens update without a reload and alerts pop up. The portal's
 * alert rules see them first; when one fires, its alert is the one shown.
 */
export function liveDeviceActivity(app: FastifyInstance): LockActivityListener {
  // The lock as screens show it, read for every status of one turn of the event loop at once: a
  // change confirmed by 10,000 locks brings 10,000 statuses together, and one read each queued
  // behind PostgreSQL's pool (docs/benchmarks.md, "Grant changes"). No cache: each batch reads
  // the rows afresh, so a status is shown with what the lock just reported.
  const lockOf = new DataLoader<LockKey, DeviceRow | undefined>(
    async (keys) => {
      const idsByPortal = new Map<string, string[]>();
      for (const { portalId, deviceId } of keys) {
        const ids = idsByPortal.get(portalId) ?? [];
        ids.push(deviceId);
        idsByPortal.set(portalId, ids);
      }
      const rows = new Map<string, DeviceRow>();
      for (const [portalId, ids] of idsByPortal) {
        for (const row of await findDevices(app.db, portalId, inList(ids))) {
          rows.set(`${portalId}/${row.id}`, row);
        }
      }
      return keys.map(({ portalId, deviceId }) => rows.get(`${portalId}/${deviceId}`));
    },
    { cache: false, maxBatchSize: 256, batchScheduleFn: (run) => setImmediate(run) },
  );

  return {
    // Each batch of stored events comes as it was inserted (no reading back); the alert rules are
    // read once per portal of the batch.
    async eventsStored(stored) {
      const byPortal = new Map<string, DeviceEvent[]>();
      for (const { portalId, event } of stored) {
        const events = byPortal.get(portalId) ?? [];
        events.push(event);
        byPortal.set(portalId, events);
      }
      for (const [portalId, events] of byPortal) {
        const alerted = await app.alerts.eventsStored(portalId, events);
        for (const event of events) {
          await app.live.publishDeviceEvent(portalId, event, { builtInAlert: !alerted.has(event._id) });
        }
      }
    },
    async statusChanged(portalId, deviceId, previous) {
      const row = await lockOf.load({ portalId, deviceId });
      if (!row) return;
      const device = toDevice(row);
      const alerted = await app.alerts.statusChanged(portalId, device, previous);
      await app.live.publishDeviceStatus(portalId, device, previous, { builtInAlert: !alerted });
    },
    // Refused credentials and failed commands go to the host's inbox (stored once, then live).
    async lockRefused(portalId, refusal) {
      await app.alerts.lockRefused(portalId, refusal);
    },
  };
}

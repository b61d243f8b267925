import type { DeviceEvent } from '@latchkey/shared';
import type { FastifyInstance } from 'fastify';
import type { LockActivityListener } from '../device-link/device-link.service';
import { toDevice } from '../devices/device.presenter';
import { findDevice } from '../devices/devices.repository';

/**
 * What locks report, onto the live channel: each stored event and each status change, as the
 * screens show them, so device screens update without a reload and alerts pop up. The portal's
 * alert rules see them first; when one fires, its alert is the one shown.
 */
export function liveDeviceActivity(app: FastifyInstance): LockActivityListener {
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
      const row = await findDevice(app.db, portalId, deviceId);
      if (!row) return;
      const device = toDevice(row);
      const alerted = await app.alerts.statusChanged(portalId, device, previous);
      await app.live.publishDeviceStatus(portalId, device, previous, { builtInAlert: !alerted });
    },
  };
}

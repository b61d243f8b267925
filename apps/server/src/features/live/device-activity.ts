import type { FastifyInstance } from 'fastify';
import type { LockActivityListener } from '../device-link/device-link.service';
import { toDevice } from '../devices/device.presenter';
import { findDevice } from '../devices/devices.repository';
import { getStoredDeviceEvent } from '../events/events.service';

/**
 * What locks report, onto the live channel: each stored event and each status change, as the
 * screens show them, so device screens update without a reload and alerts pop up. The portal's
 * alert rules see them first; when one fires, its alert is the one shown.
 */
export function liveDeviceActivity(app: FastifyInstance): LockActivityListener {
  return {
    async eventStored(portalId, deviceId, eventId) {
      const event = await getStoredDeviceEvent(app.db, portalId, deviceId, eventId);
      if (!event) return;
      const alerted = await app.alerts.eventStored(portalId, event);
      await app.live.publishDeviceEvent(portalId, event, { builtInAlert: !alerted });
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

import type { FastifyInstance } from 'fastify';
import type { LockActivityListener } from '../device-link/device-link.service';
import { toDevice } from '../devices/device.presenter';
import { findDevice } from '../devices/devices.repository';
import { getStoredDeviceEvent } from '../events/events.service';

/**
 * What locks report, onto the live channel: each stored event and each status change, as the
 * screens show them, so device screens update without a reload and alerts pop up.
 */
export function liveDeviceActivity(app: FastifyInstance): LockActivityListener {
  return {
    async eventStored(portalId, deviceId, eventId) {
      const event = await getStoredDeviceEvent(app.db, portalId, deviceId, eventId);
      if (event) await app.live.publishDeviceEvent(portalId, event);
    },
    async statusChanged(portalId, deviceId, previous) {
      const device = await findDevice(app.db, portalId, deviceId);
      if (device) await app.live.publishDeviceStatus(portalId, toDevice(device), previous);
    },
  };
}

import type { Device, LockCapabilities } from '@latchkey/shared';
import { toIso } from '../../db/mappers';
import type { DeviceRow } from '../../db/schema';

export function toDevice(row: DeviceRow): Device {
  return {
    _id: row.id,
    name: row.name,
    model: row.model,
    serial: row.serial,
    timeZone: row.time_zone,
    lowBatteryLevel: row.low_battery_level,
    battery: row.battery,
    online: Number(row.online) === 1,
    lastSeenAt: toIso(row.last_seen_at),
    lockState: row.lock_state,
    firmware: row.firmware,
    createdAt: toIso(row.created_at),
    zoneId: row.zone_id ?? null,
    capabilities: reportedCapabilities(row),
  };
}

/** What the lock said it holds and takes (stored as it sent it, checked then); null until it says. */
export function reportedCapabilities(row: Pick<DeviceRow, 'capabilities_json'>): LockCapabilities | null {
  return row.capabilities_json ? (JSON.parse(row.capabilities_json) as LockCapabilities) : null;
}

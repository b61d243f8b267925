import type { Device } from '@latchkey/shared';
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
  };
}

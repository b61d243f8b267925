import crypto from 'node:crypto';
import type {
  AccessDenialReason,
  Device,
  DeviceEvent,
  DeviceEventType,
  LiveNotification,
} from '@latchkey/shared';

/**
 * Which device happenings deserve an alert on screen, in words. Routine ones (an unlock, the door
 * closing) only refresh the screens that show them; alerts are for what someone should look at.
 */

const REASON_WORDS: Record<AccessDenialReason, string> = {
  suspended: 'the person is suspended',
  lockout: 'the lock is locked out',
  not_yet_valid: 'the credential is not valid yet',
  expired: 'the credential has expired',
  outside_schedule: 'outside their schedule',
  unknown_credential: 'unknown credential',
};

const EVENT_ALERTS: Partial<
  Record<DeviceEventType, (event: DeviceEvent) => { title: string; message: string }>
> = {
  denied: (event) => ({
    title: `Access denied at ${event.device.name}`,
    message: [event.user?.name ?? 'Someone', event.reason ? REASON_WORDS[event.reason] : null]
      .filter(Boolean)
      .join(': '),
  }),
  tamper: (event) => ({
    title: `Tamper alarm at ${event.device.name}`,
    message: 'The lock reported tampering.',
  }),
  battery_low: (event) => ({
    title: `Low battery at ${event.device.name}`,
    message: 'Replace the batteries soon.',
  }),
  door_ajar: (event) => ({
    title: `Door ajar at ${event.device.name}`,
    message: 'The door was left open.',
  }),
};

function notification(
  kind: LiveNotification['kind'],
  deviceId: string,
  text: { title: string; message: string },
  at: string,
): LiveNotification {
  return { _id: crypto.randomUUID(), at, kind, deviceId, ...text };
}

/** The alert a stored lock event raises, or null for routine events. */
export function notificationForDeviceEvent(event: DeviceEvent): LiveNotification | null {
  const describe = EVENT_ALERTS[event.type];
  return describe ? notification('device_event', event.device._id, describe(event), event.receivedAt) : null;
}

/**
 * The alert a status change raises: the lock went offline or came back, or its battery fell to
 * its low-battery level. Null when nothing worth an alert changed (or the earlier status is unknown).
 */
export function notificationForStatusChange(
  previous: Pick<Device, 'online' | 'battery'> | null,
  device: Device,
  at: string = new Date().toISOString(),
): LiveNotification | null {
  if (!previous) return null;
  if (previous.online && !device.online) {
    return notification(
      'device_status',
      device._id,
      { title: `${device.name} is offline`, message: 'The lock stopped reporting.' },
      at,
    );
  }
  if (!previous.online && device.online) {
    return notification(
      'device_status',
      device._id,
      { title: `${device.name} is back online`, message: 'The lock is reporting again.' },
      at,
    );
  }
  const fellToLow =
    device.battery !== null &&
    device.battery <= device.lowBatteryLevel &&
    (previous.battery === null || previous.battery > device.lowBatteryLevel);
  if (fellToLow) {
    return notification(
      'device_status',
      device._id,
      { title: `Low battery at ${device.name}`, message: `Battery at ${device.battery}%.` },
      at,
    );
  }
  return null;
}

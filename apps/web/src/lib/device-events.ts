import type { CredentialKind, DeviceEvent, DeviceEventType } from '@latchkey/shared';
import { REASON_TEXT } from './access-words';

/** What a lock reported, as a short label ("Unlocked"). */
export const EVENT_LABELS: Record<DeviceEventType, string> = {
  unlock: 'Unlocked',
  lock: 'Locked',
  denied: 'Refused',
  tamper: 'Tamper alarm',
  battery_low: 'Low battery',
  door_ajar: 'Door left open',
  door_closed: 'Door closed',
};

/** How the lock was operated, after "with" ("with a card"). */
const METHOD_PHRASE: Record<CredentialKind | 'manual', string> = {
  code: 'a code',
  rfid: 'a card',
  fingerprint: 'a fingerprint',
  key: 'a key',
  qr: 'a QR code',
  remote: 'the app',
  manual: 'the handle inside',
};

/** What was presented, when nobody is known ("an unknown card"). */
const UNKNOWN_PHRASE: Record<CredentialKind | 'manual', string> = {
  code: 'an unknown code',
  rfid: 'an unknown card',
  fingerprint: 'an unknown fingerprint',
  key: 'an unknown key',
  qr: 'an unknown QR code',
  remote: 'an unknown app request',
  manual: 'an attempt',
};

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function byWhom(event: Pick<DeviceEvent, 'user' | 'method'>): string {
  const who = event.user ? ` by ${event.user.name}` : '';
  const how = event.method ? ` with ${METHOD_PHRASE[event.method]}` : '';
  return `${who}${how}`;
}

/**
 * A lock event as a sentence: "Front door unlocked by Grace Hopper with a card", "Front door
 * refused Alan Turing (outside their schedule)". Without the lock's name (on the lock's own page):
 * "Unlocked by Grace Hopper with a card".
 */
export function eventSentence(
  event: Pick<DeviceEvent, 'type' | 'device' | 'user' | 'method' | 'reason'>,
  withLock = true,
): string {
  const lock = withLock ? event.device.name : '';
  const subject = (text: string) => capitalize(lock ? `${lock} ${text}` : text);
  switch (event.type) {
    case 'unlock':
      return subject(`unlocked${byWhom(event)}`.trim());
    case 'lock':
      return subject(`locked${byWhom(event)}`.trim());
    case 'denied': {
      const who = event.user
        ? event.user.name
        : event.method
          ? UNKNOWN_PHRASE[event.method]
          : 'an attempt to open';
      const why =
        event.reason && !(event.reason === 'unknown_credential' && !event.user)
          ? ` (${REASON_TEXT[event.reason].toLowerCase()})`
          : '';
      return subject(`refused ${who}${why}`);
    }
    case 'tamper':
      return lock ? `Tamper alarm at ${lock}` : 'Tamper alarm';
    case 'battery_low':
      return subject('reported a low battery');
    case 'door_ajar':
      return lock ? `${lock}: the door was left open` : 'The door was left open';
    case 'door_closed':
      return lock ? `${lock}: the door was closed` : 'The door was closed';
  }
}

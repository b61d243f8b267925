import type { CredentialKind } from '@latchkey/shared';
import { formatRelative } from './format';

/** What the server last heard of a lock's connection (the devices row every server shares). */
export interface LockLink {
  online: boolean;
  lastSeenAt: string | null;
}

export type ConnectionState = 'online' | 'offline' | 'never';

export function connectionOf(lock: LockLink): ConnectionState {
  if (lock.online) return 'online';
  return lock.lastSeenAt ? 'offline' : 'never';
}

/** "Online", "Offline, last seen 2 hours ago" or "Never connected": the same words on every screen. */
export function connectionText(lock: LockLink, nowMs?: number): string {
  switch (connectionOf(lock)) {
    case 'online':
      return 'Online';
    case 'offline':
      return `Offline, last seen ${formatRelative(lock.lastSeenAt!, nowMs)}`;
    case 'never':
      return 'Never connected';
  }
}

/**
 * Why a remote unlock cannot be sent to this lock now, or null when it can. The server refuses a
 * command to a lock that is not connected (409 lock_offline); the screen says so before anyone
 * presses the button, instead of a spinner that waits out the command's expiry.
 */
export function remoteUnavailable(lock: LockLink & { name: string }, nowMs?: number): string | null {
  switch (connectionOf(lock)) {
    case 'online':
      return null;
    case 'offline':
      return `${lock.name} is offline (last seen ${formatRelative(lock.lastSeenAt!, nowMs)}): it cannot be opened from here until it is back online.`;
    case 'never':
      return `${lock.name} has never connected: it cannot be opened from here until it connects.`;
  }
}

/**
 * Whether the person's QR code can open this lock. The lock checks the code offline with the
 * portal's key, which it receives with its first credential set: a lock that has never connected
 * has no key, so no QR code opens it; one that is offline now still has it.
 */
export function qrOpens(lock: LockLink & { credentials: readonly CredentialKind[] }): boolean {
  return (
    connectionOf(lock) !== 'never' && (lock.credentials.includes('remote') || lock.credentials.includes('qr'))
  );
}

/** The ways a person opens a lock, in words ("App and QR code", "Code", "Card"). */
const WAYS: Record<CredentialKind, string> = {
  code: 'Code',
  rfid: 'Card',
  fingerprint: 'Fingerprint',
  key: 'Key',
  qr: 'QR code',
  remote: 'App and QR code',
};

/** "Code · App and QR code": each kind once, in a fixed order. */
export function waysToOpen(credentials: readonly CredentialKind[]): string {
  const order: CredentialKind[] = ['remote', 'qr', 'code', 'rfid', 'fingerprint', 'key'];
  const kinds = order.filter((kind) => credentials.includes(kind));
  // "App and QR code" already says the QR code.
  return kinds
    .filter((kind) => !(kind === 'qr' && kinds.includes('remote')))
    .map((kind) => WAYS[kind])
    .join(' · ');
}

import type { AccessDenialReason, CredentialKind } from '@latchkey/shared';

/** Why someone cannot open a lock, in plain words (the lock's answer, the "Who can open" tab). */
export const REASON_TEXT: Record<AccessDenialReason, string> = {
  outside_schedule: 'Outside their schedule',
  suspended: 'Suspended',
  lockout: 'Lockout in effect',
  not_yet_valid: 'Not valid yet',
  expired: 'Access has expired',
  unknown_credential: 'No code, card or key for this lock',
};

/** A way to open a lock, as a short badge ("Card"). */
export const CREDENTIAL_TEXT: Record<CredentialKind, string> = {
  code: 'Code',
  rfid: 'Card',
  fingerprint: 'Fingerprint',
  key: 'Key',
  qr: 'QR code',
  remote: 'App',
};

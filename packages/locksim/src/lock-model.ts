import {
  CREDENTIAL_KINDS,
  type CredentialEntry,
  type CredentialKind,
  type CredentialsAck,
  type CredentialSet,
} from '@latchkey/shared';

/** The hardware a simulated lock has: which readers, and how many credentials its memory holds. */
export interface LockModel {
  supportedKinds: readonly CredentialKind[];
  capacity: number;
}

export const DEFAULT_LOCK_MODEL: LockModel = { supportedKinds: CREDENTIAL_KINDS, capacity: 1000 };

// A keypad has ten digit keys and a bounded PIN buffer; a card reader reports the UID as hex bytes
// (4, 7 or 10 bytes for ISO 14443 cards). Other kinds are opaque ids the lock only compares.
const KEYPAD_PIN = /^\d{4,12}$/;
const CARD_UID = /^(?:[0-9A-Fa-f]{8}|[0-9A-Fa-f]{14}|[0-9A-Fa-f]{20})$/;

function secretFits(entry: CredentialEntry): boolean {
  if (entry.kind === 'code') return KEYPAD_PIN.test(entry.secret);
  if (entry.kind === 'rfid') return CARD_UID.test(entry.secret);
  return true;
}

export interface AppliedCredentialSet {
  /** The set the lock decides with: the received one without the rejected entries. */
  kept: CredentialSet;
  rejected: CredentialsAck['rejected'];
}

/** Splits a received set into what this model can store and use, and what it must refuse. */
export function applyCredentialSet(model: LockModel, received: CredentialSet): AppliedCredentialSet {
  const entries: CredentialEntry[] = [];
  const rejected: CredentialsAck['rejected'] = [];
  for (const entry of received.entries) {
    if (!model.supportedKinds.includes(entry.kind)) {
      rejected.push({ credentialId: entry.credentialId, reason: 'unsupported_kind' });
    } else if (!secretFits(entry)) {
      rejected.push({ credentialId: entry.credentialId, reason: 'invalid_secret' });
    } else if (entries.length >= model.capacity) {
      rejected.push({ credentialId: entry.credentialId, reason: 'storage_full' });
    } else {
      entries.push(entry);
    }
  }
  return { kept: { ...received, entries }, rejected };
}

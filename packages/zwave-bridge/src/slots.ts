import {
  explainEntry,
  localWallTime,
  type CredentialEntry,
  type CredentialRejection,
  type CredentialSet,
} from '@latchkey/shared';

/** What the bridge knows of a lock's keypad, read from its User Code CC. */
export interface KeypadCapabilities {
  /** Number of user-code slots (User Code CC "users number"), slots 1..userCodes. */
  userCodes: number;
  /** Characters a code may use (User Code CC v2 capabilities; digits on every lock in practice). */
  allowedCharacters: string;
  /** Z-Wave user codes are 4 to 10 characters. */
  minLength: number;
  maxLength: number;
}

export interface SlotPlan {
  /** credentialId → slot, stable: a credential keeps its slot for as long as it is in the set. */
  assignment: Map<string, number>;
  /** What every managed slot should hold now: the code, or null for an empty slot. */
  desired: Map<number, string | null>;
  /** Entries the lock cannot take, with the protocol's reason. */
  rejected: { credentialId: string; reason: CredentialRejection }[];
  /** The entries behind the slots, to name the credential of a keypad event. */
  slotOwners: Map<number, string>;
}

/** Kinds the bridge handles: codes go to user-code slots, `remote` is the Door Lock CC (no slot). */
function supportedKind(entry: CredentialEntry): 'slot' | 'none' | 'unsupported' {
  if (entry.kind === 'code') return 'slot';
  if (entry.kind === 'remote') return 'none';
  return 'unsupported';
}

function validCode(code: string, caps: KeypadCapabilities): boolean {
  if (code.length < caps.minLength || code.length > caps.maxLength) return false;
  return [...code].every((ch) => caps.allowedCharacters.includes(ch));
}

/**
 * Maps a credential set onto the lock's user-code slots at `now` (on the bridge's clock):
 * - codes only: cards, fingerprints, keys and QR entries are rejected `unsupported_kind`;
 * - a code the keypad cannot take (length, characters, a duplicate of another entry's code) is
 *   rejected `invalid_secret` (the lock would refuse a duplicate);
 * - a credential keeps the slot it was given (`previous`) for as long as it is in the set, whether
 *   it is open now or not, so a code never moves between slots; new ones take the lowest free slot;
 *   those that find none are rejected `storage_full`, never silently dropped;
 * - a slot holds its code only while the entry grants access now (validity window, weekly schedule,
 *   lockouts, suspension, exactly as evaluateAccess decides); otherwise it is empty.
 */
export function planSlots(
  set: CredentialSet,
  caps: KeypadCapabilities,
  previous: ReadonlyMap<string, number>,
  now: Date,
): SlotPlan {
  const rejected: SlotPlan['rejected'] = [];
  const codes: CredentialEntry[] = [];
  const seenSecrets = new Set<string>();
  for (const entry of set.entries) {
    const kind = supportedKind(entry);
    if (kind === 'unsupported') {
      rejected.push({ credentialId: entry.credentialId, reason: 'unsupported_kind' });
    } else if (kind === 'slot') {
      if (!validCode(entry.secret, caps) || seenSecrets.has(entry.secret)) {
        rejected.push({ credentialId: entry.credentialId, reason: 'invalid_secret' });
      } else {
        seenSecrets.add(entry.secret);
        codes.push(entry);
      }
    }
  }

  const assignment = new Map<string, number>();
  const taken = new Set<number>();
  // Credentials that already have a slot keep it.
  for (const entry of codes) {
    const slot = previous.get(entry.credentialId);
    if (slot !== undefined && slot >= 1 && slot <= caps.userCodes && !taken.has(slot)) {
      assignment.set(entry.credentialId, slot);
      taken.add(slot);
    }
  }
  let next = 1;
  for (const entry of codes) {
    if (assignment.has(entry.credentialId)) continue;
    while (next <= caps.userCodes && taken.has(next)) next++;
    if (next > caps.userCodes) {
      rejected.push({ credentialId: entry.credentialId, reason: 'storage_full' });
      continue;
    }
    assignment.set(entry.credentialId, next);
    taken.add(next);
  }

  const desired = new Map<number, string | null>();
  const slotOwners = new Map<number, string>();
  for (let slot = 1; slot <= caps.userCodes; slot++) desired.set(slot, null);
  for (const entry of codes) {
    const slot = assignment.get(entry.credentialId);
    if (slot === undefined) continue;
    slotOwners.set(slot, entry.credentialId);
    if (explainEntry(set, entry, now).granted) desired.set(slot, entry.secret);
  }
  rejected.sort((a, b) => (a.credentialId < b.credentialId ? -1 : a.credentialId > b.credentialId ? 1 : 0));
  return { assignment, desired, rejected, slotOwners };
}

/** A date and time as read on a wall clock (a four-digit year). */
export interface WallClockTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** `instant` on the wall clock of `timeZone`, to the minute (seconds are dropped). */
export function wallClockOf(instant: Date, timeZone: string): WallClockTime {
  const { date, minutes } = localWallTime(instant, timeZone);
  return {
    year: Number(date.slice(0, 4)),
    month: Number(date.slice(5, 7)),
    day: Number(date.slice(8, 10)),
    hour: Math.floor(minutes / 60),
    minute: minutes % 60,
  };
}

/**
 * The year-day schedule a slot's code should carry on the lock, as a key to compare with what was
 * written: null when the code has no end (or the slot is empty), so the lock keeps no schedule for it.
 * Only the validity window goes to the lock; weekly schedules are the bridge's alone.
 */
export function lockScheduleKey(set: CredentialSet, entry: CredentialEntry | undefined): string | null {
  if (!entry || entry.validUntil === null) return null;
  return `${entry.validFrom ?? ''}/${entry.validUntil} ${set.timeZone}`;
}

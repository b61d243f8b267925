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
  /**
   * RFID credential slots (User Credential CC), slots 1..rfidSlots, numbered apart from the user-code
   * slots; 0 (or absent) on a lock without the CC, where cards are rejected `unsupported_kind`.
   */
  rfidSlots?: number;
}

/** One kind's slots: which credential holds which slot, and what each slot should hold now. */
export interface KindSlots {
  /** credentialId → slot, stable: a credential keeps its slot for as long as it is in the set. */
  assignment: Map<string, number>;
  /** What every managed slot should hold now: the secret, or null for an empty slot. */
  desired: Map<number, string | null>;
  /** The entries behind the slots, to name the credential of an event. */
  slotOwners: Map<number, string>;
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
  /** Cards in the lock's RFID credential slots (User Credential CC), planned like the codes. */
  cards: KindSlots;
}

/**
 * Kinds the bridge handles: codes go to user-code slots, cards to RFID credential slots where the
 * lock has them, `remote` is the Door Lock CC (no slot).
 */
function supportedKind(
  entry: CredentialEntry,
  caps: KeypadCapabilities,
): 'slot' | 'card' | 'none' | 'unsupported' {
  if (entry.kind === 'code') return 'slot';
  if (entry.kind === 'rfid' && (caps.rfidSlots ?? 0) > 0) return 'card';
  if (entry.kind === 'remote') return 'none';
  return 'unsupported';
}

/**
 * A card's secret is its UID as the portal stores it (rfidUidSchema: 4, 7 or 10 bytes in upper-case
 * hex, no separators); the lock takes the UID's bytes, so the hex must be whole bytes.
 */
function validCardUid(uid: string): boolean {
  return /^(?:[0-9A-F]{2}){4,10}$/.test(uid);
}

function validCode(code: string, caps: KeypadCapabilities): boolean {
  if (code.length < caps.minLength || code.length > caps.maxLength) return false;
  return [...code].every((ch) => caps.allowedCharacters.includes(ch));
}

/**
 * Gives each entry a slot in 1..slots: an entry keeps the slot it was given (`previous`) for as long
 * as it is in the set, whether it is open now or not, so a secret never moves between slots; new
 * ones take the lowest free slot; those that find none are returned as not fitting. A slot holds its
 * secret only while the entry grants access at `now`; otherwise it is empty.
 */
function assignSlots(
  set: CredentialSet,
  entries: CredentialEntry[],
  slots: number,
  previous: ReadonlyMap<string, number>,
  now: Date,
): KindSlots & { full: string[] } {
  const assignment = new Map<string, number>();
  const taken = new Set<number>();
  const full: string[] = [];
  // Credentials that already have a slot keep it.
  for (const entry of entries) {
    const slot = previous.get(entry.credentialId);
    if (slot !== undefined && slot >= 1 && slot <= slots && !taken.has(slot)) {
      assignment.set(entry.credentialId, slot);
      taken.add(slot);
    }
  }
  let next = 1;
  for (const entry of entries) {
    if (assignment.has(entry.credentialId)) continue;
    while (next <= slots && taken.has(next)) next++;
    if (next > slots) {
      full.push(entry.credentialId);
      continue;
    }
    assignment.set(entry.credentialId, next);
    taken.add(next);
  }

  const desired = new Map<number, string | null>();
  const slotOwners = new Map<number, string>();
  for (let slot = 1; slot <= slots; slot++) desired.set(slot, null);
  for (const entry of entries) {
    const slot = assignment.get(entry.credentialId);
    if (slot === undefined) continue;
    slotOwners.set(slot, entry.credentialId);
    // The same check as every other lock (validity window, weekly schedule, lockouts, suspension).
    if (explainEntry(set, entry, now).granted) desired.set(slot, entry.secret);
  }
  return { assignment, desired, slotOwners, full };
}

/**
 * Maps a credential set onto the lock's user-code slots and, where it has the User Credential CC,
 * its RFID credential slots, at `now` (on the bridge's clock):
 * - codes go to user-code slots, cards to RFID slots (numbered apart, each kind from 1);
 *   fingerprints, keys and QR entries, and cards on a lock without RFID slots, are rejected
 *   `unsupported_kind`;
 * - a code the keypad cannot take (length, characters, a duplicate of another entry's code), or a
 *   card UID that is not whole bytes or is there twice, is rejected `invalid_secret` (the lock would
 *   refuse a duplicate);
 * - a credential keeps its slot for as long as it is in the set (assignSlots); those that find no
 *   free slot are rejected `storage_full`, never silently dropped;
 * - a slot holds its secret only while the entry grants access now; otherwise it is empty.
 */
export function planSlots(
  set: CredentialSet,
  caps: KeypadCapabilities,
  previous: ReadonlyMap<string, number>,
  now: Date,
  previousCards: ReadonlyMap<string, number> = new Map(),
): SlotPlan {
  const rejected: SlotPlan['rejected'] = [];
  const codes: CredentialEntry[] = [];
  const cards: CredentialEntry[] = [];
  const seenSecrets = new Set<string>();
  const seenUids = new Set<string>();
  for (const entry of set.entries) {
    const kind = supportedKind(entry, caps);
    if (kind === 'unsupported') {
      rejected.push({ credentialId: entry.credentialId, reason: 'unsupported_kind' });
    } else if (kind === 'slot') {
      if (!validCode(entry.secret, caps) || seenSecrets.has(entry.secret)) {
        rejected.push({ credentialId: entry.credentialId, reason: 'invalid_secret' });
      } else {
        seenSecrets.add(entry.secret);
        codes.push(entry);
      }
    } else if (kind === 'card') {
      if (!validCardUid(entry.secret) || seenUids.has(entry.secret)) {
        rejected.push({ credentialId: entry.credentialId, reason: 'invalid_secret' });
      } else {
        seenUids.add(entry.secret);
        cards.push(entry);
      }
    }
  }

  const { full: codesFull, ...codeSlots } = assignSlots(set, codes, caps.userCodes, previous, now);
  const { full: cardsFull, ...cardSlots } = assignSlots(set, cards, caps.rfidSlots ?? 0, previousCards, now);
  for (const credentialId of [...codesFull, ...cardsFull]) {
    rejected.push({ credentialId, reason: 'storage_full' });
  }
  rejected.sort((a, b) => (a.credentialId < b.credentialId ? -1 : a.credentialId > b.credentialId ? 1 : 0));
  return { ...codeSlots, rejected, cards: cardSlots };
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

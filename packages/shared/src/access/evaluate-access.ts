import type {
  AccessDecision,
  CredentialEntry,
  CredentialHolderType,
  CredentialSet,
  Lockout,
  PresentedCredential,
} from './access.schemas';
import { isWithinSchedule } from './schedule';

/**
 * Someone who could open the lock at a given instant, with the credentials that would work: a person
 * (by userId), or a single company, guest or master credential (userId null).
 */
export interface LockOpener {
  holderType: CredentialHolderType;
  userId: string | null;
  credentialIds: string[];
}

/** The lockouts in effect at `instant` (started, and not ended). */
export function lockoutsInEffect(lockouts: readonly Lockout[], instant: Date): Lockout[] {
  const at = instant.getTime();
  return lockouts.filter(
    (lockout) => Date.parse(lockout.from) <= at && (lockout.until === null || at < Date.parse(lockout.until)),
  );
}

/**
 * The lockout in effect at `instant` that holds a person of `role` out, if any: every active
 * lockout holds basic users out; admins pass the ones that let admins through.
 */
export function lockoutHoldingOut(
  lockouts: readonly Lockout[],
  role: CredentialEntry['userRole'],
  instant: Date,
): Lockout | null {
  return (
    lockoutsInEffect(lockouts, instant).find((lockout) => !(lockout.exemptAdmins && role === 'admin')) ?? null
  );
}

/**
 * One entry's decision at `instant`, checked in this order: suspended user, active lockout (admins
 * pass only lockouts that exempt them), validFrom still ahead, validUntil reached, schedule closed.
 */
export function explainEntry(
  credentialSet: CredentialSet,
  entry: CredentialEntry,
  instant: Date,
): AccessDecision {
  const at = instant.getTime();
  const who = { credentialId: entry.credentialId, userId: entry.userId };
  if (entry.userStatus === 'suspended') return { granted: false, reason: 'suspended', ...who };
  if (lockoutHoldingOut(credentialSet.lockouts, entry.userRole, instant)) {
    return { granted: false, reason: 'lockout', ...who };
  }
  if (entry.validFrom !== null && Date.parse(entry.validFrom) > at) {
    return { granted: false, reason: 'not_yet_valid', ...who };
  }
  if (entry.validUntil !== null && Date.parse(entry.validUntil) <= at) {
    return { granted: false, reason: 'expired', ...who };
  }
  if (!isWithinSchedule(entry.schedule, credentialSet.timeZone, instant)) {
    return { granted: false, reason: 'outside_schedule', ...who };
  }
  return { granted: true, ...who };
}

/**
 * Whether `presented` opens the lock at `instant`. Entries match on kind and exact secret (no
 * trimming; leading zeros of a code count); no match → unknown_credential. Each match is judged by
 * explainEntry (suspended → lockout → not_yet_valid → expired → outside_schedule → granted); the first
 * granting match in entry order wins, otherwise the first match's refusal is returned.
 */
export function evaluateAccess(
  credentialSet: CredentialSet,
  presented: PresentedCredential,
  instant: Date,
): AccessDecision {
  let decision: AccessDecision = { granted: false, reason: 'unknown_credential' };
  let matched = false;
  for (const entry of credentialSet.entries) {
    if (entry.kind !== presented.kind || entry.secret !== presented.secret) continue;
    const entryDecision = explainEntry(credentialSet, entry, instant);
    if (entryDecision.granted) return entryDecision;
    if (!matched) decision = entryDecision;
    matched = true;
  }
  return decision;
}

// Code-unit order, not localeCompare: the same answer on every runtime and locale.
const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Who the lock would accept at `instant`: each person with at least one working credential (sorted
 * by userId), then each working company, guest or master credential on its own (by credentialId).
 */
export function whoCanOpen(credentialSet: CredentialSet, instant: Date): LockOpener[] {
  const byUser = new Map<string, string[]>();
  const others: LockOpener[] = [];
  for (const entry of credentialSet.entries) {
    if (!explainEntry(credentialSet, entry, instant).granted) continue;
    if (entry.userId === null) {
      others.push({ holderType: entry.holderType, userId: null, credentialIds: [entry.credentialId] });
      continue;
    }
    const credentialIds = byUser.get(entry.userId) ?? [];
    if (!credentialIds.includes(entry.credentialId)) credentialIds.push(entry.credentialId);
    byUser.set(entry.userId, credentialIds);
  }
  const people = [...byUser.keys()]
    .sort(byCodeUnits)
    .map((userId): LockOpener => ({ holderType: 'person', userId, credentialIds: byUser.get(userId) ?? [] }));
  return [...people, ...others.sort((a, b) => byCodeUnits(a.credentialIds[0]!, b.credentialIds[0]!))];
}

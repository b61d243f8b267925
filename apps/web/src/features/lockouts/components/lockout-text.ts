import type { LockoutRecord } from '@latchkey/shared';
import { formatDateTime, formatRange } from '@/lib/format';
import { credentialClock, type CredentialClock } from '@/lib/zoned-time';

export type LockoutState = 'active' | 'upcoming' | 'past';

export const STATE_LABELS: Record<LockoutState, string> = {
  active: 'Active',
  upcoming: 'Upcoming',
  past: 'Past',
};

/** Whether a lockout is in force, still to come or over (the server says whether it is active). */
export function lockoutState(
  lockout: Pick<LockoutRecord, 'active' | 'from'>,
  now = Date.now(),
): LockoutState {
  if (lockout.active) return 'active';
  return new Date(lockout.from).getTime() > now ? 'upcoming' : 'past';
}

/**
 * The clock a lockout's times are typed and shown on (issue 19, item 4): its locks' when they share
 * one zone, else the portal's (credentialClock; docs/decisions.md, "Lockouts on the lock's clock").
 */
export function lockoutClock(devices: readonly { timeZone: string }[], portalZone: string): CredentialClock {
  return credentialClock(
    devices.map((device) => device.timeZone),
    portalZone,
  );
}

/**
 * A lockout's period in words, on its clock (lockoutClock) and labelled with the zone:
 * "Dec 1, 2026, 09:00 – 17:00 Europe/Rome", "Dec 1, 2026, 09:00 – Dec 3, 2026, 08:00 Europe/Rome",
 * "From Dec 1, 2026, 09:00 Europe/Rome, no end".
 */
export function describePeriod(
  { from, until, devices }: Pick<LockoutRecord, 'from' | 'until' | 'devices'>,
  portalZone: string,
): string {
  const zone = lockoutClock(devices, portalZone).timeZone;
  if (!until) return `From ${formatDateTime(from, zone, { zone: true })}, no end`;
  return formatRange(from, until, zone, { zone: true });
}

/** "Front door", "Front door and Back gate", "Front door, Back gate and 3 more". */
export function describeLocks(devices: LockoutRecord['devices'], shown = 2): string {
  const names = devices.map((device) => device.name);
  if (names.length === 0) return 'No locks';
  if (names.length <= shown) {
    return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  }
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

import type { LockoutRecord } from '@latchkey/shared';
import { formatDateTime, formatRange } from '@/lib/format';
import { browserTimeZone } from '@/lib/local-datetime';

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
 * A lockout's period in words, on the browser's clock (the lockout form's, "Times on your clock"):
 * "Dec 1, 2026, 09:00 – 17:00", "Dec 1, 2026, 09:00 – Dec 3, 2026, 08:00", "From Dec 1, 2026, 09:00,
 * no end".
 */
export function describePeriod({ from, until }: Pick<LockoutRecord, 'from' | 'until'>): string {
  const zone = browserTimeZone();
  if (!until) return `From ${formatDateTime(from, zone)}, no end`;
  return formatRange(from, until, zone);
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

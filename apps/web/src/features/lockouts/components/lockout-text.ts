import { LOCALE, type LockoutRecord } from '@latchkey/shared';
import { formatDateTime } from '@/lib/format';

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

const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();

const timeOnly = (date: Date) => new Intl.DateTimeFormat(LOCALE, { timeStyle: 'short' }).format(date);

/**
 * A lockout's period in words, on the browser's clock: "Dec 1, 2026, 9:00 AM – 5:00 PM",
 * "Dec 1, 2026, 9:00 AM – Dec 3, 2026, 8:00 AM", "From Dec 1, 2026, 9:00 AM, no end".
 */
export function describePeriod({ from, until }: Pick<LockoutRecord, 'from' | 'until'>): string {
  if (!until) return `From ${formatDateTime(from)}, no end`;
  const start = new Date(from);
  const end = new Date(until);
  if (sameDay(start, end)) return `${formatDateTime(from)} – ${timeOnly(end)}`;
  return `${formatDateTime(from)} – ${formatDateTime(until)}`;
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

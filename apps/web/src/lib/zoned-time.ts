import { localWallTime } from '@latchkey/shared';
import { portalTimeZone } from './format';
import { browserTimeZone } from './local-datetime';
import { useSession } from './session';

/**
 * Wall-clock times in another time zone than the browser's: locks keep their own zone, and an
 * admin asking "who can open at 09:00?" means 09:00 on the lock's clock.
 */

const pad = (value: number) => String(value).padStart(2, '0');

/** 'YYYY-MM-DDTHH:MM' as the wall clock of `timeZone` reads at `instant` (a datetime-local value). */
export function wallClockAt(instant: Date, timeZone: string): string {
  const { date, minutes } = localWallTime(instant, timeZone);
  return `${date}T${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/;

/** The wall clock of `timeZone` at `ms` minus UTC, in ms (minute precision). */
function offsetAt(ms: number, timeZone: string): number {
  const instant = ms - (((ms % 60_000) + 60_000) % 60_000);
  return Date.parse(`${wallClockAt(new Date(instant), timeZone)}:00Z`) - instant;
}

/**
 * The instant at which the wall clock of `timeZone` reads `local` ('YYYY-MM-DDTHH:MM'), or null
 * when `local` is malformed. A repeated local time (clocks going back) gives its first occurrence;
 * a skipped one (clocks going forward) gives the instant just after the jump.
 */
export function instantAtWallClock(local: string, timeZone: string): Date | null {
  const match = WALL_CLOCK.exec(local);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match.map(Number) as [number, ...number[]];
  const asUtc = new Date(0).setUTCFullYear(year!, month! - 1, day!) + (hour! * 60 + minute!) * 60_000;
  if (Number.isNaN(asUtc)) return null;
  const first = asUtc - offsetAt(asUtc, timeZone);
  const second = asUtc - offsetAt(first, timeZone);
  const wanted = `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}`;
  return new Date(wallClockAt(new Date(second), timeZone) === wanted ? second : first);
}

/** Whose clock a credential's times are on, and the words that say it. */
export interface CredentialClock {
  timeZone: string;
  /** "the lock's clock (Europe/Rome)", "the portal's clock (Europe/Berlin)". */
  says: string;
  /** Set when the locks' zones differ: why the portal's clock is used instead. */
  note: string | null;
}

/**
 * The clock a credential's validity is read and typed on (issue 19, item 4): a lock's times are on
 * the lock's clock. A credential for several locks in one zone uses that zone. When its locks are in
 * several zones (or it has none yet), the portal's zone is used and said: the validity is one
 * instant, so it starts and ends at the same moment on every lock, at a different hour on each.
 */
export function credentialClock(lockZones: readonly string[], portalZone: string): CredentialClock {
  const zones = [...new Set(lockZones)].sort();
  if (zones.length === 1) {
    const zone = zones[0]!;
    return {
      timeZone: zone,
      says: lockZones.length === 1 ? `the lock's clock (${zone})` : `the locks' clock (${zone})`,
      note: null,
    };
  }
  return {
    timeZone: portalZone,
    says: `the portal's clock (${portalZone})`,
    note:
      zones.length > 1
        ? `Its locks are in ${zones.length} time zones (${zones.join(', ')}): the times are on the portal's clock and start and end at the same moment on each lock.`
        : null,
  };
}

/** The open portal's time zone (the browser's while none is open), for the portal's clock. */
export function usePortalTimeZone(): string {
  const session = useSession();
  return session.data?.portal?.timeZone ?? browserTimeZone();
}

/** The same, read outside React (form helpers): the session in the query cache. */
export function currentPortalTimeZone(): string {
  return portalTimeZone() ?? browserTimeZone();
}

import type { DeviceRow } from '../../db/schema';

/** The listing's locks share one time zone (checked when it is saved); the first names it. */
export function listingTimeZone(locks: readonly DeviceRow[]): string {
  return locks[0]?.time_zone ?? 'UTC';
}

import { addDaysToDate, localWallTime, REVIEW_WINDOW_DAYS, zonedInstant } from '@latchkey/shared';
import type { StayRow } from '../../db/schema';
import type { StayDeps } from '../rental/rental-context';

/**
 * Whether a stay may be reviewed at `now`, and until when: from the stay's check-out instant (its
 * own check-out time, else the listing's, on the locks' clock: not merely its departure date, when
 * the guest is still inside until check-out) to the end of the REVIEW_WINDOW_DAYS-th day after it
 * on the listing's calendar (docs/decisions.md "Links and access that end").
 */
export function reviewWindow(
  stay: Pick<StayRow, 'state' | 'end_date' | 'check_out_time'>,
  listing: { check_out_time: string },
  timeZone: string,
  now: Date,
) {
  const closesOn = addDaysToDate(stay.end_date, REVIEW_WINDOW_DAYS);
  const checkOut = zonedInstant(stay.end_date, stay.check_out_time ?? listing.check_out_time, timeZone);
  if (stay.state !== 'approved') return { open: false, closesOn, reason: `This stay was ${stay.state}` };
  if (now < checkOut) return { open: false, closesOn, reason: 'Reviews open once the stay is over' };
  if (localWallTime(now, timeZone).date > closesOn) {
    return { open: false, closesOn, reason: `Reviews close ${REVIEW_WINDOW_DAYS} days after check-out` };
  }
  return { open: true, closesOn, reason: null };
}

/** The review page of a stay (/review?t=…). */
export function reviewPath(deps: StayDeps, stay: Pick<StayRow, 'id' | 'guest_token_version'>): string {
  return `/review?t=${encodeURIComponent(deps.tokens.sign('review', stay.id, stay.guest_token_version))}`;
}

import { addDaysToDate, REVIEW_WINDOW_DAYS } from '@latchkey/shared';
import type { StayRow } from '../../db/schema';
import type { StayDeps } from '../stays/stays.service';

/** Whether a stay may be reviewed now, and until when (on the listing's calendar). */
export function reviewWindow(stay: Pick<StayRow, 'state' | 'end_date'>, today: string) {
  const closesOn = addDaysToDate(stay.end_date, REVIEW_WINDOW_DAYS);
  if (stay.state !== 'approved') return { open: false, closesOn, reason: `This stay was ${stay.state}` };
  if (today < stay.end_date) return { open: false, closesOn, reason: 'Reviews open once the stay is over' };
  if (today > closesOn) return { open: false, closesOn, reason: 'Reviews close 30 days after check-out' };
  return { open: true, closesOn, reason: null };
}

/** The review page of a stay (/review?t=…). */
export function reviewPath(deps: StayDeps, stay: Pick<StayRow, 'id' | 'guest_token_version'>): string {
  return `/review?t=${encodeURIComponent(deps.tokens.sign('review', stay.id, stay.guest_token_version))}`;
}

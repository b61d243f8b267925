import {
  STAY_STATE_LABELS,
  type StayAccessState,
  type StayLockAccess,
  type StaySource,
  type StayState,
} from '@latchkey/shared';
import { Badge, type BadgeProps } from '@mantine/core';
import { formatCalendarDate } from '@/lib/format';

// The words are shared with the server (search results name a stay's state the same way).
export { STAY_STATE_LABELS };

/**
 * How a stay came to be, as the stays list ("Imported 7 minutes ago") and the stay page say it: a
 * guest asked, someone added it in the portal, or an imported calendar brought it (no one asked).
 */
export const STAY_ORIGINS: Record<StaySource, { verb: string; how: string }> = {
  request: { verb: 'Asked', how: 'through the public request page' },
  manual: { verb: 'Added', how: 'in the portal' },
  ical: { verb: 'Imported', how: 'from a calendar' },
};

const STAY_STATE_COLORS: Record<StayState, string> = {
  requested: 'yellow',
  approved: 'teal',
  declined: 'gray',
  cancelled: 'gray',
};

export const ACCESS_STATE_LABELS: Record<StayAccessState, string> = {
  none: 'No access',
  waiting: 'Waiting for the lock',
  ready: 'On the locks',
  failed: 'Refused by a lock',
};

const ACCESS_STATE_COLORS: Record<StayAccessState, string> = {
  none: 'gray',
  waiting: 'blue',
  ready: 'teal',
  failed: 'red',
};

export function StayStateBadge({ state, ...props }: { state: StayState } & BadgeProps) {
  return (
    <Badge color={STAY_STATE_COLORS[state]} variant="light" {...props}>
      {STAY_STATE_LABELS[state]}
    </Badge>
  );
}

/** Long labels wrap on a narrow column instead of being cut. */
const WRAPPING = {
  root: { height: 'auto', minHeight: 20 },
  label: { whiteSpace: 'normal', lineHeight: 1.3 },
} as const;

export function AccessStateBadge({ state, ...props }: { state: StayAccessState } & BadgeProps) {
  return (
    <Badge
      color={ACCESS_STATE_COLORS[state]}
      variant={state === 'waiting' ? 'outline' : 'light'}
      styles={WRAPPING}
      {...props}
    >
      {ACCESS_STATE_LABELS[state]}
    </Badge>
  );
}

const LOCK_STATE: Record<StayLockAccess['state'], { label: string; color: string }> = {
  pending: { label: 'Being prepared', color: 'gray' },
  sent: { label: 'Sent, waiting for the lock', color: 'blue' },
  confirmed: { label: 'On the lock', color: 'teal' },
  rejected: { label: 'Refused', color: 'red' },
  removed: { label: 'Removed', color: 'gray' },
};

const REJECTION_WORDS: Record<NonNullable<StayLockAccess['reason']>, string> = {
  unsupported_kind: 'the lock cannot take this kind of credential',
  invalid_secret: 'the lock cannot take this code',
  storage_full: 'the lock’s memory is full',
};

/** One credential's state on one lock, with the lock's reason for a refusal. */
export function LockAccessBadge({ access }: { access: StayLockAccess }) {
  const state = LOCK_STATE[access.state];
  return (
    <Badge
      color={state.color}
      variant="light"
      styles={WRAPPING}
      title={access.reason ? REJECTION_WORDS[access.reason] : undefined}
    >
      {state.label}
      {access.reason ? `: ${REJECTION_WORDS[access.reason]}` : ''}
    </Badge>
  );
}

/** "Dec 4, 2026 – Dec 7, 2026 · 3 nights". */
export function describeDates(stay: { startDate: string; endDate: string; nights: number }): string {
  return `${formatCalendarDate(stay.startDate)} – ${formatCalendarDate(stay.endDate)} · ${stay.nights} night${stay.nights === 1 ? '' : 's'}`;
}

/** Minutes as "2 h", "90 min", "1 h 30 min". */
export function describeMinutes(minutes: number): string {
  const sign = minutes < 0 ? '−' : '';
  const abs = Math.abs(minutes);
  const hours = Math.floor(abs / 60);
  const rest = abs % 60;
  if (hours === 0) return `${sign}${rest} min`;
  return rest === 0 ? `${sign}${hours} h` : `${sign}${hours} h ${rest} min`;
}

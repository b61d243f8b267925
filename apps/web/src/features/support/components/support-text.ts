import {
  isAppAddress,
  SUPPORT_TYPE_LABELS,
  SUPPORT_TYPES,
  type SupportStatus,
  type SupportType,
} from '@latchkey/shared';

/** A request's status as people read it, and its badge colour. */
export const STATUS_TEXT: Record<SupportStatus, { label: string; color: string }> = {
  open: { label: 'Waiting for support', color: 'blue' },
  answered: { label: 'Answered', color: 'teal' },
  closed: { label: 'Closed', color: 'gray' },
};

/** What each type is for, under its name on the "New request" choice. */
export const TYPE_HINTS: Record<SupportType, string> = {
  lock: 'A lock does not open, lock, connect or report as it should.',
  access: 'Someone cannot get in, or can get in where they should not.',
  billing: 'Your plan, a bill, a payment or an order.',
  account: 'Signing in, your email address, two-factor sign-in.',
  other: 'Anything else we can help with.',
};

export function typeLabel(type: SupportType): string {
  return SUPPORT_TYPE_LABELS[type];
}

/** The type named in an address, or null when it names none. */
export function supportTypeOf(value: string | undefined): SupportType | null {
  return (SUPPORT_TYPES as readonly string[]).includes(value ?? '') ? (value as SupportType) : null;
}

/**
 * The screen a request was filed from, as it arrived in the address (`?from=`): an address inside
 * the app only (anything else is dropped, never followed).
 */
export function navIdFrom(value: string | null): string {
  return value && isAppAddress(value) ? value : '';
}

import type { FormErrors } from '@mantine/form';
import { isoToLocalInput, localInputToIso } from './local-datetime';
import { instantAtWallClock, wallClockAt } from './zoned-time';

/**
 * The validity window of a credential (company code, key, fingerprint): its state now, and the
 * form fields for it (`datetime-local` values, '' for "no limit"). With a `timeZone` the fields are
 * on that zone's clock (a lock's: see credentialClock in zoned-time.ts); without one, on the
 * browser's, as before.
 */

export type ValidityState = 'active' | 'upcoming' | 'expired';

export const VALIDITY_STATE_LABELS: Record<ValidityState, string> = {
  active: 'Active',
  upcoming: 'Not yet valid',
  expired: 'Expired',
};

interface Window {
  validFrom: string | null;
  validUntil: string | null;
}

/** Expired once `validUntil` has passed, not yet valid before `validFrom`, else active. */
export function validityState({ validFrom, validUntil }: Window, now = Date.now()): ValidityState {
  if (validUntil && new Date(validUntil).getTime() <= now) return 'expired';
  if (validFrom && new Date(validFrom).getTime() > now) return 'upcoming';
  return 'active';
}

export interface ValidityValues {
  validFrom: string;
  validUntil: string;
}

export const VALIDITY_LABELS: Record<keyof ValidityValues, string> = {
  validFrom: 'Valid from',
  validUntil: 'Valid until',
};

/** An instant as a form value on `timeZone`'s clock (the browser's without one). */
export function toField(iso: string | null | undefined, timeZone?: string): string {
  if (!timeZone) return isoToLocalInput(iso);
  const date = iso ? new Date(iso) : null;
  return date && !Number.isNaN(date.getTime()) ? wallClockAt(date, timeZone) : '';
}

/** A form value on `timeZone`'s clock (the browser's without one) as an instant, or null if malformed. */
export function fromField(value: string, timeZone?: string): string | null {
  if (!timeZone) return localInputToIso(value);
  return instantAtWallClock(value.trim(), timeZone)?.toISOString() ?? null;
}

/** A record's window as form values. */
export function validityValues(record?: Window, timeZone?: string): ValidityValues {
  return {
    validFrom: toField(record?.validFrom, timeZone),
    validUntil: toField(record?.validUntil, timeZone),
  };
}

/** Form values as the API's instants; an empty field sends null. */
export function validityInput(values: ValidityValues, timeZone?: string): Window {
  const read = (value: string) => (value ? (fromField(value, timeZone) ?? value) : null);
  return { validFrom: read(values.validFrom), validUntil: read(values.validUntil) };
}

/** The schema's "must be after validFrom" (from the form or a 400) in the words of the form. */
export function friendlyValidity(errors: FormErrors): FormErrors {
  const out = { ...errors };
  if (typeof out.validUntil === 'string' && /after/i.test(out.validUntil)) {
    out.validUntil = 'Valid until must be after valid from';
  }
  return out;
}

/** Validity messages for a form: malformed date-times, and an end before the start. */
export function checkValidity(values: ValidityValues, errors: FormErrors, timeZone?: string): FormErrors {
  const out = friendlyValidity(errors);
  if (values.validFrom && !fromField(values.validFrom, timeZone)) {
    out.validFrom = 'Valid from must be a date and time';
  }
  if (values.validUntil && !fromField(values.validUntil, timeZone)) {
    out.validUntil = 'Valid until must be a date and time';
  }
  return out;
}

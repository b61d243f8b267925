import type { FormErrors } from '@mantine/form';
import { isoToLocalInput, localInputToIso } from './local-datetime';

/**
 * The validity window of a credential (company code, key, fingerprint): its state now, and the
 * form fields for it (`datetime-local` values on the browser's clock, '' for "no limit").
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

/** A record's window as form values. */
export function validityValues(record?: Window): ValidityValues {
  return { validFrom: isoToLocalInput(record?.validFrom), validUntil: isoToLocalInput(record?.validUntil) };
}

/** Form values as the API's instants with the browser's offset; an empty field sends null. */
export function validityInput(values: ValidityValues): Window {
  const read = (value: string) => (value ? (localInputToIso(value) ?? value) : null);
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
export function checkValidity(values: ValidityValues, errors: FormErrors): FormErrors {
  const out = friendlyValidity(errors);
  if (values.validFrom && !localInputToIso(values.validFrom)) {
    out.validFrom = 'Valid from must be a date and time';
  }
  if (values.validUntil && !localInputToIso(values.validUntil)) {
    out.validUntil = 'Valid until must be a date and time';
  }
  return out;
}

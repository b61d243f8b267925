import { lockoutInputSchema, type LockoutInput, type LockoutRecord } from '@latchkey/shared';
import type { FormErrors } from '@mantine/form';
import { formResolver } from '@/lib/forms';
import { fromField, toField } from '@/lib/validity';

/**
 * The lockout form: date-times as datetime-local values on the lockout's clock (lockoutClock in
 * lockout-text.ts: its locks' zone, or the portal's when they span several). The clock follows the
 * chosen locks, so the values are read on it when the form is checked and sent.
 */
export interface LockoutValues {
  name: string;
  from: string;
  until: string;
  noEnd: boolean;
  exemptAdmins: boolean;
  deviceIds: string[];
}

export const LOCKOUT_LABELS: Record<Exclude<keyof LockoutValues, 'noEnd'>, string> = {
  name: 'Name',
  from: 'Starts',
  until: 'Ends',
  exemptAdmins: 'Let admins through',
  deviceIds: 'Locks',
};

/** The next full hour on `timeZone`'s clock, as a datetime-local value: a new lockout's default start. */
function nextHour(timeZone: string, now = new Date()): string {
  const inAnHour = new Date(now.getTime() + 3_600_000).toISOString();
  return `${toField(inAnHour, timeZone).slice(0, -2)}00`;
}

/** The form's first values, the times on `timeZone`'s clock. */
export function initialLockoutValues(timeZone: string, lockout?: LockoutRecord): LockoutValues {
  if (!lockout) {
    return {
      name: '',
      from: nextHour(timeZone),
      until: '',
      noEnd: false,
      exemptAdmins: false,
      deviceIds: [],
    };
  }
  return {
    name: lockout.name,
    from: toField(lockout.from, timeZone),
    until: toField(lockout.until, timeZone),
    noEnd: lockout.until === null,
    exemptAdmins: lockout.exemptAdmins,
    deviceIds: lockout.devices.map((device) => device._id),
  };
}

/** The API's body: the times read on `timeZone`'s clock as instants; "No end" sends until: null. */
export function toLockoutInput(values: LockoutValues, timeZone: string): LockoutInput {
  return {
    name: values.name.trim(),
    from: fromField(values.from, timeZone) ?? values.from,
    until: values.noEnd ? null : (fromField(values.until, timeZone) ?? values.until),
    exemptAdmins: values.exemptAdmins,
    deviceIds: values.deviceIds,
  };
}

/** Messages that read well under these fields (the schema's speak of `from` and `deviceIds`). */
export function friendlyLockoutErrors(errors: FormErrors): FormErrors {
  const out = { ...errors };
  if (typeof out.until === 'string' && /after/i.test(out.until)) out.until = 'Ends must be after it starts';
  if (typeof out.deviceIds === 'string' && /at least one/i.test(out.deviceIds)) {
    out.deviceIds = 'Choose at least one lock';
  }
  return out;
}

/**
 * Validates with the shared schema, with clear messages for empty or malformed date-times read on
 * `timeZone`'s clock.
 */
export function validateLockout(values: LockoutValues, timeZone: string): FormErrors {
  const resolve = formResolver<LockoutValues>(lockoutInputSchema, LOCKOUT_LABELS, (v) =>
    toLockoutInput(v, timeZone),
  );
  const errors: FormErrors = resolve(values);
  const from = fromField(values.from, timeZone);
  if (!values.from) errors.from = 'Choose when the lockout starts';
  else if (!from) errors.from = 'Starts must be a date and time';
  if (values.noEnd) delete errors.until;
  else {
    const until = fromField(values.until, timeZone);
    if (!values.until) errors.until = 'Choose when it ends, or switch on "No end"';
    else if (!until) errors.until = 'Ends must be a date and time';
    else if (from && new Date(until) <= new Date(from)) errors.until = 'Ends must be after it starts';
  }
  return friendlyLockoutErrors(errors);
}

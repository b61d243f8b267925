import { lockoutInputSchema, type LockoutInput, type LockoutRecord } from '@latchkey/shared';
import type { FormErrors } from '@mantine/form';
import { formResolver } from '@/lib/forms';
import { isoToLocalInput, localInputToIso } from '@/lib/local-datetime';

/** The lockout form: date-times as datetime-local values on the browser's clock. */
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

/** The next full hour, as a datetime-local value: a new lockout's default start. */
function nextHour(now = new Date()): string {
  const next = new Date(now);
  next.setHours(next.getHours() + 1, 0, 0, 0);
  return isoToLocalInput(next.toISOString());
}

export function initialLockoutValues(lockout?: LockoutRecord): LockoutValues {
  if (!lockout) {
    return { name: '', from: nextHour(), until: '', noEnd: false, exemptAdmins: false, deviceIds: [] };
  }
  return {
    name: lockout.name,
    from: isoToLocalInput(lockout.from),
    until: isoToLocalInput(lockout.until),
    noEnd: lockout.until === null,
    exemptAdmins: lockout.exemptAdmins,
    deviceIds: lockout.devices.map((device) => device._id),
  };
}

/** The API's body: instants with the browser's offset; "No end" sends until: null. */
export function toLockoutInput(values: LockoutValues): LockoutInput {
  return {
    name: values.name.trim(),
    from: localInputToIso(values.from) ?? values.from,
    until: values.noEnd ? null : (localInputToIso(values.until) ?? values.until),
    exemptAdmins: values.exemptAdmins,
    deviceIds: values.deviceIds,
  };
}

const resolve = formResolver<LockoutValues>(lockoutInputSchema, LOCKOUT_LABELS, toLockoutInput);

/** Messages that read well under these fields (the schema's speak of `from` and `deviceIds`). */
export function friendlyLockoutErrors(errors: FormErrors): FormErrors {
  const out = { ...errors };
  if (typeof out.until === 'string' && /after/i.test(out.until)) out.until = 'Ends must be after it starts';
  if (typeof out.deviceIds === 'string' && /at least one/i.test(out.deviceIds)) {
    out.deviceIds = 'Choose at least one lock';
  }
  return out;
}

/** Validates with the shared schema, with clear messages for empty or malformed date-times. */
export function validateLockout(values: LockoutValues): FormErrors {
  const errors: FormErrors = resolve(values);
  const from = localInputToIso(values.from);
  if (!values.from) errors.from = 'Choose when the lockout starts';
  else if (!from) errors.from = 'Starts must be a date and time';
  if (values.noEnd) delete errors.until;
  else {
    const until = localInputToIso(values.until);
    if (!values.until) errors.until = 'Choose when it ends, or switch on "No end"';
    else if (!until) errors.until = 'Ends must be a date and time';
    else if (from && new Date(until) <= new Date(from)) errors.until = 'Ends must be after it starts';
  }
  return friendlyLockoutErrors(errors);
}

import { isApiError, type ApiError } from './api-client';

/**
 * Server messages like "must be an email address" read as sentences on their own. Only a plain
 * lower-case word is capitalised: a message may open with the person's own data ("user@demo.com
 * is already a member", a lock's name) and that is shown as they typed it.
 */
export function sentence(message: string): string {
  const trimmed = message.trim();
  const firstWord = /^\S*/.exec(trimmed)![0];
  if (!/^[a-z]+[,:;]?$/.test(firstWord)) return trimmed;
  return trimmed[0]!.toUpperCase() + trimmed.slice(1);
}

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

/** What to tell a person about a failed call. */
export function errorMessage(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 0) return error.message;
    if (error.status === 429) {
      return error.retryAfter
        ? `Too many attempts. Try again in ${waitText(error.retryAfter)}.`
        : 'Too many attempts. Wait a little and try again.';
    }
    if (error.status >= 500) return 'The server ran into a problem. Try again in a moment.';
    return sentence(error.message);
  }
  return 'Something went wrong. Try again.';
}

/**
 * A validation message for a field: the shared schemas say "must be an email address", which
 * reads as "Email must be an email address" under the field labelled Email.
 */
export function fieldMessage(label: string | undefined, message: string): string {
  const trimmed = message.trim();
  if (label && /^[a-z]/.test(trimmed)) return `${label} ${trimmed}`;
  return sentence(trimmed);
}

/**
 * The field errors in a 400 answer's details, for the form's fields (field → label). A detail's
 * path may be `email`, `body.email` or `/email`: its last segment names the field.
 */
export function fieldErrorsFrom<Field extends string>(
  error: ApiError,
  labels: Record<Field, string>,
): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  for (const detail of error.details) {
    const name = detail.path.split(/[./]/).filter(Boolean).pop();
    const field = (Object.keys(labels) as Field[]).find((f) => f === name);
    if (field && !errors[field]) errors[field] = fieldMessage(labels[field], detail.message);
  }
  return errors;
}

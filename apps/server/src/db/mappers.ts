import type { Count } from './schema';

/** A timestamp from either dialect as an ISO-8601 UTC string. */
export function toIso(value: Date | string): string;
export function toIso(value: Date | string | null): string | null;
export function toIso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** A count from either dialect as a number. */
export function toCount(value: Count | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}

/** The current moment as written to the database. */
export function nowIso(): string {
  return new Date().toISOString();
}

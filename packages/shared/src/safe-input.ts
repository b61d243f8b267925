import { z } from 'zod';

// Building blocks for every request schema: what a client sends must be storable the same way on
// SQLite and PostgreSQL, so input PostgreSQL would refuse (a NUL character, the year 0000) is a
// 400 here instead of a 500 there, on both databases (docs/decisions.md "Input hardening").

/**
 * Control characters no field needs: C0 (NUL breaks PostgreSQL text), DEL and C1 (U+0080–U+009F,
 * shown as empty boxes), the line and paragraph separators U+2028/U+2029, and the bidirectional
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which make a name read
 * backwards ("Trojan Source"). The direction marks U+200E/U+200F stay: right-to-left text needs them.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** The same, except tab, line feed and carriage return, which multi-line text may hold. */
const CONTROL_CHARACTERS_BUT_LINES =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/**
 * What trimming takes off both ends: white space (as String.prototype.trim) and the invisible
 * zero-width characters (U+200B–U+200D, U+2060, U+FEFF), so a name of only those is empty, and so
 * refused where a name is required. Inside the text they stay (emoji sequences are joined by U+200D).
 */
const EDGE_SPACE = /^[\s\u200b-\u200d\u2060\ufeff]+|[\s\u200b-\u200d\u2060\ufeff]+$/g;
/** Half of a UTF-16 surrogate pair without its other half: not a character, not storable as UTF-8. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const NO_CONTROL_MESSAGE = 'must not contain control characters';
const WELL_FORMED_MESSAGE = 'must be valid Unicode text';

/** True when `value` has no lone UTF-16 surrogate (String.prototype.isWellFormed, for ES2023). */
export function isWellFormedText(value: string): boolean {
  return !LONE_SURROGATE.test(value);
}

/** `value` without white space and zero-width characters at either end. */
export function trimText(value: string): string {
  return value.replace(EDGE_SPACE, '');
}

/** True when `value` has no control character (CONTROL_CHARACTERS; tab and line breaks too, unless `lines`). */
export function hasNoControlCharacters(value: string, lines = false): boolean {
  return !(lines ? CONTROL_CHARACTERS_BUT_LINES : CONTROL_CHARACTERS).test(value);
}

/**
 * Text a parser read from a file or feed someone else wrote (an iCal SUMMARY, UID or DESCRIPTION),
 * made storable as the request schemas' text is: lone surrogates and control characters removed,
 * and in one-line text tabs and line breaks turned into spaces; trimmed. Parsers clean third-party
 * text rather than refuse it: the owner cannot fix another platform's feed, and one stray NUL
 * should not stop a calendar (docs/decisions.md "iCal imports run as background work").
 */
export function toSafeText(value: string, options: { lines?: boolean } = {}): string {
  const lines = options.lines ?? false;
  let text = value.replace(new RegExp(LONE_SURROGATE.source, 'g'), '');
  if (lines) text = text.replace(/\r\n?/g, '\n');
  else text = text.replace(/[\t\n\r]+/g, ' ');
  return trimText(
    text.replace(new RegExp((lines ? CONTROL_CHARACTERS_BUT_LINES : CONTROL_CHARACTERS).source, 'g'), ''),
  );
}

/**
 * One line of text a person types (names, labels, numbers on keys): trimmed (white space and
 * zero-width characters at the ends); no control characters, no lone surrogates. Chain
 * `.min()`/`.max()` as with `z.string()`.
 */
export function lineText() {
  // One `.check()` with all three instead of a chain: each chained call copies the schema, and
  // hundreds of fields are built from this when a page's code loads (docs/benchmarks.md).
  return z.string().check(
    z.overwrite(trimText),
    z.refine((value: string) => hasNoControlCharacters(value), NO_CONTROL_MESSAGE),
    z.refine(isWellFormedText, WELL_FORMED_MESSAGE),
  );
}

/** Text that may span lines (descriptions): like lineText, but tab and line breaks are kept. */
export function multilineText() {
  return z.string().check(
    z.overwrite(trimText),
    z.refine((value: string) => hasNoControlCharacters(value, true), NO_CONTROL_MESSAGE),
    z.refine(isWellFormedText, WELL_FORMED_MESSAGE),
  );
}

/**
 * A password as typed: not trimmed, and any character but NUL and lone surrogates. A lone
 * surrogate becomes U+FFFD on its way to UTF-8, so '\ud800' and '\udbff' would hash as one
 * password; NUL ends a string in C code that some hashers and clients still run through. Other
 * control characters are left alone: a password is hashed, never stored or shown.
 */
export function passwordText() {
  return z.string().check(
    z.refine((value: string) => !value.includes('\u0000'), 'must not contain the NUL character'),
    z.refine(isWellFormedText, WELL_FORMED_MESSAGE),
  );
}

/** A search or filter value typed into a list's search box. */
export const searchTextSchema = lineText().max(200);

/**
 * The id of a record in a path, a query or a body. Ids are UUIDs the server made; anything that is
 * not letters, digits, '-' or '_' names nothing, and is refused before it reaches a query.
 */
export const idSchema = z
  .string()
  .min(1, 'is required')
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'is not a valid id');

/**
 * The instants a client may send: from 1900 to the end of 9999 (UTC). PostgreSQL's timestamptz
 * knows no year 0000 and JavaScript formats years past 9999 as "+010000", which no ISO-8601 reader
 * in this system takes back; nothing a person schedules lies outside this range.
 */
export const EARLIEST_INPUT_INSTANT = '1900-01-01T00:00:00.000Z';
export const LATEST_INPUT_INSTANT = '9999-12-31T23:59:59.999Z';
const EARLIEST_MS = Date.parse(EARLIEST_INPUT_INSTANT);
const LATEST_MS = Date.parse(LATEST_INPUT_INSTANT);
const RANGE_MESSAGE = 'must be between the years 1900 and 9999';

function inInputRange(milliseconds: number): boolean {
  return milliseconds >= EARLIEST_MS && milliseconds <= LATEST_MS;
}

/**
 * An ISO-8601 date-time a client sends (validity, lockout periods, "at", list date filters):
 * with a time-zone offset, or with `offset: false` only UTC ('Z'); within the years 1900–9999.
 */
export function instantInput(options: { offset?: boolean; message?: string } = {}) {
  return z.iso
    .datetime({ offset: options.offset ?? true, ...(options.message && { message: options.message }) })
    .refine((value) => inInputRange(Date.parse(value)), RANGE_MESSAGE);
}

/** A calendar date YYYY-MM-DD a client sends (schedules, guest invites), within 1900–9999. */
export function dateInput(message = 'must be a date YYYY-MM-DD') {
  return z.iso.date(message).refine((value) => inInputRange(Date.parse(`${value}T00:00:00Z`)), RANGE_MESSAGE);
}

/** Plain decimal digits with an optional minus sign: what a whole number in a query string may be. */
const DECIMAL_INTEGER = /^-?\d{1,15}$/;

/**
 * A whole number in a query string: plain decimal digits only. `z.coerce.number()` would also take
 * '0x10' (16), '1e3', ' 16 ' or '' (0). Only text of decimal digits becomes a number, so the
 * OpenAPI document shows an integer with its bounds; anything else is refused as not a number.
 */
export function integerParam(bounds: { min: number; max: number }) {
  return z.preprocess(
    (value) => (typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value),
    z
      .number({ error: 'must be a whole number in decimal digits' })
      .int()
      .min(bounds.min, `must be at least ${bounds.min}`)
      .max(bounds.max, `must be at most ${bounds.max}`),
  );
}

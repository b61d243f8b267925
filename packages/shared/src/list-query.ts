import { z } from 'zod';
import {
  EARLIEST_INPUT_INSTANT,
  integerParam,
  isWellFormedText,
  LATEST_INPUT_INSTANT,
  searchTextSchema,
} from './safe-input';

const booleanParam = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((value) => value === true || value === 'true' || value === '1');

function listQueryShape<
  const Sort extends readonly [string, ...string[]],
  const Filter extends readonly [string, ...string[]],
>(fields: { sortBy: Sort; filterBy: Filter }) {
  return {
    skip: integerParam({ min: 0, max: 1_000_000 }).default(0),
    limit: integerParam({ min: 1, max: 200 }).default(25),
    search: searchTextSchema.optional(),
    sortBy: z.enum(fields.sortBy).optional(),
    descending: booleanParam.default(false),
    filterBy: z.enum(fields.filterBy).optional(),
    filterValue: searchTextSchema.optional(),
  };
}

/** A list query names a filter field and its value together, or neither. */
function filterGoesWithValue(q: { filterBy?: string; filterValue?: string }) {
  return (q.filterBy === undefined) === (q.filterValue === undefined);
}
const filterPairIssue = { message: 'filterBy and filterValue go together', path: ['filterValue'] };

/**
 * The paged list query of the brief §3 for one list: sort and filter fields are allow-listed,
 * so a list can never be sorted or filtered by a column it does not name.
 */
export function listQuerySchema<
  const Sort extends readonly [string, ...string[]],
  const Filter extends readonly [string, ...string[]],
>(fields: { sortBy: Sort; filterBy: Filter }) {
  return z.object(listQueryShape(fields)).refine(filterGoesWithValue, filterPairIssue);
}

/** What a list sorts by, for checking a keyset cursor: text, a whole number or an instant. */
export type SortKeyKind = 'text' | 'integer' | 'instant';

/**
 * Where a keyset page starts: the sort value and id of the last row of the page before, and the
 * order it was taken in. Clients treat it as opaque text (the page's `next`).
 */
export interface ListCursor {
  sortBy: string;
  descending: boolean;
  value: string | number | null;
  id: string;
}

/** The cursor as text for a query string (base64url of a JSON tuple). */
export function encodeListCursor(cursor: ListCursor): string {
  const json = JSON.stringify([cursor.sortBy, cursor.descending, cursor.value, cursor.id]);
  const bytes = new TextEncoder().encode(json);
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The cursor in `text`, or undefined when it is not one `encodeListCursor` made. */
export function decodeListCursor(text: string): ListCursor | undefined {
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const parsed: unknown = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))),
    );
    if (!Array.isArray(parsed) || parsed.length !== 4) return undefined;
    const [sortBy, descending, value, id] = parsed as unknown[];
    if (typeof sortBy !== 'string' || typeof descending !== 'boolean' || typeof id !== 'string')
      return undefined;
    if (value !== null && typeof value !== 'string' && typeof value !== 'number') return undefined;
    return { sortBy, descending, value, id };
  } catch {
    return undefined;
  }
}

/** Instants as the server writes them in cursors: ISO-8601 UTC, up to microseconds. */
const CURSOR_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** A cursor value fit for a column of this kind: anything else would be a database error (a 500). */
function fitsSortKey(value: string | number | null, kind: SortKeyKind): boolean {
  if (value === null) return true;
  if (kind === 'integer')
    return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 2 ** 31;
  if (
    typeof value !== 'string' ||
    value.length > 1000 ||
    value.includes('\u0000') ||
    !isWellFormedText(value)
  )
    return false;
  if (kind === 'text') return true;
  const millisecond = value.length > 24 ? `${value.slice(0, 23)}Z` : value;
  return (
    CURSOR_INSTANT.test(value) && millisecond >= EARLIEST_INPUT_INSTANT && millisecond <= LATEST_INPUT_INSTANT
  );
}

/**
 * The paged list query of a list that also pages by keyset: `after` (the `next` of the page
 * before) starts the page after that row in the same order, so a page deep into a sorted list
 * costs what the first does (`skip` reads and drops every row before it). `skip` still works, and
 * applies after the cursor. Parsed, `after` is the decoded cursor; one made for another order, or
 * not made by the server, is a 400.
 */
export function keysetListQuerySchema<
  const Sort extends readonly [string, ...string[]],
  const Filter extends readonly [string, ...string[]],
>(fields: {
  sortBy: Sort;
  filterBy: Filter;
  defaultSortBy: Sort[number];
  sortKeys: Record<Sort[number], SortKeyKind>;
}) {
  const sortKeys: Record<string, SortKeyKind> = fields.sortKeys;
  return z
    .object({
      ...listQueryShape(fields),
      after: z
        .string()
        .max(2000)
        .regex(/^[A-Za-z0-9_-]+$/, 'is not a cursor from this list')
        .optional()
        .describe("The `next` of the page before: this page starts after that page's last row"),
    })
    .refine(filterGoesWithValue, filterPairIssue)
    .transform((query, context) => {
      const { after, ...rest } = query;
      if (after === undefined) return rest;
      const cursor = decodeListCursor(after);
      const sortBy = query.sortBy ?? fields.defaultSortBy;
      if (
        !cursor ||
        cursor.sortBy !== sortBy ||
        cursor.descending !== query.descending ||
        !fitsSortKey(cursor.value, sortKeys[sortBy]!) ||
        !fitsSortKey(cursor.id, 'text')
      ) {
        context.issues.push({
          code: 'custom',
          message: 'is not a cursor from this list in this order',
          path: ['after'],
          input: after,
        });
        return z.NEVER;
      }
      return { ...rest, after: cursor };
    });
}

export type ListQuery<Sort extends string = string, Filter extends string = string> = {
  skip: number;
  limit: number;
  search?: string;
  sortBy?: Sort;
  descending: boolean;
  filterBy?: Filter;
  filterValue?: string;
};

/** The parsed query of a keyset list (`keysetListQuerySchema`): the page starts after `after`'s row. */
export type KeysetListQuery<Sort extends string = string, Filter extends string = string> = ListQuery<
  Sort,
  Filter
> & { after?: ListCursor };

/** The answer of every paged list: one page of items and the total matching the query. */
export function pageSchema<Item extends z.ZodType>(item: Item) {
  return z.object({ items: z.array(item), total: z.number().int() });
}

/**
 * The answer of a keyset list: a page of items, the total matching the query, and `next`, the
 * `after` of the following page (absent when this page is the last).
 */
export function keysetPageSchema<Item extends z.ZodType>(item: Item) {
  const schema = z.object({
    items: z.array(item),
    total: z.number().int(),
    next: z.string().optional().describe('Pass as `after` for the next page; absent on the last page'),
  });
  keysetPages.add(schema);
  return schema;
}

const keysetPages = new WeakSet<z.ZodType>();

/** True for a schema keysetPageSchema made (the server gives those a compiled serializer). */
export function isKeysetPageSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && keysetPages.has(schema as z.ZodType);
}

import type { ListCursor } from '@latchkey/shared';
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { isPostgres } from './search';
import type { Database } from './database';

/**
 * Keyset paging: the rows after `cursor` in a list ordered by `sort` then `id`, both ascending or
 * both descending. A `nullable` sort key has its nulls first ascending and last descending (as the
 * lists order them on both databases). Row-value comparisons, so the index on (…, sort, id) starts
 * at the cursor instead of reading and dropping every row before it.
 */
export function afterCursor(
  sort: Expression<unknown>,
  id: Expression<string>,
  cursor: ListCursor,
  nullable: boolean,
): RawBuilder<SqlBool> {
  const { value, descending } = cursor;
  const after = descending
    ? sql<SqlBool>`(${sort}, ${id}) < (${value}, ${cursor.id})`
    : sql<SqlBool>`(${sort}, ${id}) > (${value}, ${cursor.id})`;
  if (!nullable) return after;
  if (value === null) {
    return descending
      ? sql<SqlBool>`(${sort} is null and ${id} < ${cursor.id})`
      : sql<SqlBool>`((${sort} is null and ${id} > ${cursor.id}) or ${sort} is not null)`;
  }
  return descending ? sql<SqlBool>`(${after} or ${sort} is null)` : after;
}

/**
 * A sort key as a cursor carries it. An instant on PostgreSQL is read as ISO text with its
 * microseconds (a JavaScript Date keeps milliseconds, and a cursor a microsecond early would
 * repeat a row); SQLite keeps instants as the ISO text they were written as.
 */
export function cursorValue(
  db: Database,
  sort: Expression<unknown>,
  kind: 'instant' | 'other',
): RawBuilder<unknown> {
  if (kind === 'instant' && isPostgres(db)) {
    return sql`to_char(${sort} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  }
  return sql`${sort}`;
}

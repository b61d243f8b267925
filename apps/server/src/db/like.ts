import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * Case-insensitive "contains" on one column (or a text expression), with LIKE wildcards in the term
 * taken literally.
 */
export function containsText(column: string | Expression<string>, term: string): Expression<SqlBool> {
  const pattern = `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const value = typeof column === 'string' ? sql.ref(column) : column;
  return sql<SqlBool>`lower(${value}) like ${pattern} escape '\\'`;
}

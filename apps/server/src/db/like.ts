import { sql, type Expression, type SqlBool } from 'kysely';

/** Case-insensitive "contains" on one column, with LIKE wildcards in the term taken literally. */
export function containsText(column: string, term: string): Expression<SqlBool> {
  const pattern = `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

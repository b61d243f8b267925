import { PostgresAdapter, type Kysely } from 'kysely';

/** The column type for a point in time: timestamptz on PostgreSQL, ISO-8601 text on SQLite. */
export function timestampType(db: Kysely<any>): 'timestamptz' | 'text' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'timestamptz' : 'text';
}

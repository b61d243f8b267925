import {
  PostgresAdapter,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type Selectable,
  type SqlBool,
} from 'kysely';
import type { Database } from '../../db/database';
import type { DB } from '../../db/schema';

/** Any table with any columns: what Kysely sees of a table chosen at run time. */
type AnyTables = Record<string, Record<string, unknown>>;

/** A column of table `T`, by name. */
type ColumnOf<T extends keyof DB> = keyof DB[T] & string;

export interface ClaimDueOptions<T extends keyof DB> {
  table: T;
  /** The primary key (one column). */
  key: ColumnOf<T>;
  /** When a row is due; claiming moves it to the end of the lease. */
  dueAt: ColumnOf<T>;
  /** What else a due row must be (not sent, not given up, this job's row). */
  where?: (eb: ExpressionBuilder<DB, T>) => Expression<SqlBool>;
  /** At most this many rows, the longest due first. */
  limit: number;
  /** How long the claim holds: a server that dies holding it leaves the rows due again after it. */
  leaseMs: number;
  now?: Date;
}

/**
 * Claims due rows for this server: one UPDATE moves their due time to the end of a lease and
 * answers them, so a row is handed to exactly one of the servers sharing the database. The worker
 * then records the outcome (done, or due again at a retry time); if it dies first, the row is due
 * again when the lease ends. PostgreSQL: the due rows are picked `FOR UPDATE SKIP LOCKED`, so
 * servers claiming at once take different rows instead of waiting for each other. SQLite: the one
 * writer runs the statement alone.
 */
export async function claimDue<T extends keyof DB>(
  db: Database,
  options: ClaimDueOptions<T>,
): Promise<Selectable<DB[T]>[]> {
  const { table, key, dueAt, where, limit, leaseMs, now = new Date() } = options;
  // Kysely cannot type a query over a table chosen by a parameter; the options above are typed.
  const anyDb = db as unknown as Kysely<AnyTables>;
  const [name, keyColumn, dueColumn] = [table as string, key as string, dueAt as string];
  const nowIso = now.toISOString();
  let due = anyDb
    .selectFrom(name)
    .select(keyColumn)
    .where(dueColumn, '<=', nowIso)
    .orderBy(dueColumn)
    .orderBy(keyColumn)
    .limit(limit);
  if (where)
    due = due.where((eb: ExpressionBuilder<AnyTables, string>) =>
      where(eb as unknown as ExpressionBuilder<DB, T>),
    );
  if (db.getExecutor().adapter instanceof PostgresAdapter) due = due.forUpdate().skipLocked();
  const rows = await anyDb
    .updateTable(name)
    .set({ [dueColumn]: new Date(now.getTime() + leaseMs).toISOString() })
    .where(keyColumn, 'in', due)
    // Asked again of the row being updated: on PostgreSQL, a row another claim changed in between
    // is read again here and no longer matches.
    .where(dueColumn, '<=', nowIso)
    .returningAll()
    .execute();
  return rows as Selectable<DB[T]>[];
}

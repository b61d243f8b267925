import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema';

export type Database = Kysely<DB>;
export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  dialect: DialectName;
  /** Where the data lives, for the start-up log (no password). */
  description: string;
}

/** Opens PostgreSQL when a URL is given, else the SQLite file in the data folder. */
export function openDatabase(options: { databaseUrl?: string; dataDir: string }): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection that PostgreSQL ends (a restart, pg_terminate_backend) is an 'error' on the
    // pool; unheard, it ended the process. The pool drops that connection and opens another when
    // needed, and a query in flight still fails with its own error.
    pool.on('error', () => {});
    const url = new URL(options.databaseUrl);
    return {
      db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }),
      dialect: 'postgres',
      description: `postgres://${url.host}${url.pathname}`,
    };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, 'latchkey.sqlite');
  const sqlite = new SQLite(file);
  // WAL lets readers run beside the writer; FULL sync makes every acknowledged commit durable.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // 32 MiB of page cache instead of SQLite's 2 MiB: lock events go into indexes on ids the locks
  // choose, whose pages a busy fleet touches all over; beyond the cache each insert reads pages
  // back from the file (bench/lock-events.bench.ts, docs/decisions.md).
  sqlite.pragma('cache_size = -32768');
  keepPlannerStatistics(sqlite);
  return {
    db: new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) }),
    dialect: 'sqlite',
    description: file,
  };
}

const OPTIMIZE_EVERY_MS = 60 * 60 * 1000;

/**
 * SQLite plans queries from statistics that only ANALYZE gathers; without them it may take a
 * 50,000-person portal for a small one and search its people six times slower. As SQLite advises
 * for long-lived connections: `optimize` with a full check when opening, then every hour (it
 * analyses only the tables that changed enough, with a bounded sample).
 */
function keepPlannerStatistics(sqlite: SQLite.Database) {
  sqlite.pragma('optimize = 0x10002');
  const timer = setInterval(() => {
    if (sqlite.open) sqlite.pragma('optimize');
    else clearInterval(timer);
  }, OPTIMIZE_EVERY_MS);
  timer.unref();
}

/** Statements kept prepared; the rest (queries with long `in (...)` lists) are prepared per use. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew, which costs more than running most of them. The
 * same SQL text is the same statement, so keep the recent ones (least recently used go first).
 * Safe because the driver runs one query at a time on its single connection.
 */
function withStatementCache(sqlite: SQLite.Database) {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) statements.delete(sql);
      else statement = sqlite.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}

/**
 * Runs several reads on one snapshot, so that what they return agrees with itself. PostgreSQL's
 * default (read committed) gives each statement its own snapshot: a write committed between two
 * reads shows in one and not the other. A SQLite transaction is one snapshot already.
 */
export function readConsistently<T>(db: Database, read: (trx: Database) => Promise<T>): Promise<T> {
  return db.transaction().setIsolationLevel('repeatable read').execute(read);
}

/** True when an error from either driver is a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

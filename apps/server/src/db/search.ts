import { PostgresAdapter, sql } from 'kysely';
import type { Database } from './database';

/**
 * Substring search through trigram indexes (migration 0018). A search means what `containsText`
 * says (case-insensitive contains, wildcards literal); an index only narrows the rows it is tried on.
 * - PostgreSQL: pg_trgm GIN indexes on `lower(column)` serve `lower(column) like '%term%'` directly.
 * - SQLite: FTS5 tables with the trigram tokenizer (`search_members`, `search_devices`) give the ids of
 *   rows that may match; the query still applies `containsText` to them (FTS5 folds the case of
 *   every letter, SQLite's `lower` only of A–Z, so the index may offer a few rows the scan would not
 *   take, never miss one).
 */

/** True on PostgreSQL, whose pg_trgm indexes serve `containsText` as it stands. */
export function isPostgres(db: Database): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A trigram index answers terms of at least this many characters; shorter ones scan. */
export const MIN_TRIGRAM_TERM_LENGTH = 3;

/**
 * How far a trigram's row list is read to tell whether it is rare: first up to 1,000 rows; if every
 * trigram of the term has that many, up to 10,000 (reading a few lists that far still costs less
 * than a phrase query over lists of every row).
 */
const PROBE_LIMITS = [1_000, 10_000];
/** How many of a long term's trigrams are probed (evenly spread over it). */
const MAX_PROBED_TRIGRAMS = 8;

export type SqliteSearchTable = 'search_members' | 'search_devices';

/**
 * SQLite: the FTS5 query that finds the rows of `table` which may contain `term`, or undefined when
 * the term is shorter than a trigram (the caller scans instead).
 *
 * FTS5 reads the whole row list of every trigram in a query, and a trigram every member shares
 * ("las" of "Last…", "@gm" of "@gmail.com") lists them all: the phrase "last3fa9" took 8 ms at
 * 500,000 members where its three rare trigrams took 0.6 ms. So the term's trigrams are probed
 * first, each read only up to a limit (PROBE_LIMITS), and the query keeps those found rarer than
 * it (their rows include every match; containsText then checks them). Only when every trigram is
 * common even at the last limit is the whole term asked for as a phrase.
 */
export async function sqliteTrigramQuery(
  db: Database,
  table: SqliteSearchTable,
  term: string,
): Promise<string | undefined> {
  const characters = [...term];
  if (characters.length < MIN_TRIGRAM_TERM_LENGTH) return undefined;
  const trigrams = [...new Set(characters.slice(0, -2).map((_, i) => characters.slice(i, i + 3).join('')))];
  const step = Math.ceil(trigrams.length / MAX_PROBED_TRIGRAMS);
  const probed = trigrams.filter((_, i) => i % step === 0);
  for (const limit of PROBE_LIMITS) {
    const probes = probed.map(
      (trigram, i) =>
        sql`(select count(*) from (select 1 from ${sql.table(table)} where ${sql.table(table)} match ${quoted(trigram)} limit ${limit})) as ${sql.ref(`t${i}`)}`,
    );
    const { rows } = await sql<Record<string, number>>`select ${sql.join(probes)}`.execute(db);
    const rare = probed.filter((_, i) => Number(rows[0]![`t${i}`]) < limit);
    if (rare.length > 0) return rare.map(quoted).join(' AND ');
  }
  return quoted(term);
}

/** An FTS5 string: the text in double quotes, its own double quotes doubled (no query syntax inside). */
function quoted(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

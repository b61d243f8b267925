import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
//
// PostgreSQL: the pg_trgm GIN indexes of migration 0018 without GIN's pending list ("fastupdate").
// Rows inserted after the index was built wait in that list until a vacuum or 4 MB, and every
// search reads the whole list: 14,000 people waiting there (the rest of 0018's backfill) made a
// search of 500,000 take 35 ms instead of 5. People and locks are added far more rarely than they
// are searched, so each insert goes straight into the index instead.
const TRIGRAM_INDEXES = [
  'member_directory_email_trgm_idx',
  'member_directory_first_name_trgm_idx',
  'member_directory_last_name_trgm_idx',
  'devices_name_trgm_idx',
  'devices_serial_trgm_idx',
];

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const index of TRIGRAM_INDEXES) {
    await sql`select gin_clean_pending_list(${index}::regclass)`.execute(db);
    await sql`alter index ${sql.id(index)} set (fastupdate = off)`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const index of TRIGRAM_INDEXES) {
    await sql`alter index ${sql.id(index)} reset (fastupdate)`.execute(db);
  }
}

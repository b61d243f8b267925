import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
//
// The collections' change log (brief §7 `POST {collection}/ls`; docs/decisions.md "Collections"):
// one row per record of a collection that was ever added, changed or deleted (then a tombstone),
// kept by triggers on the tables behind each collection, in the changing transaction, so no
// service, script or future feature can change a record without `ls` hearing of it. `seq` grows
// with every change (the row is replaced, so the log holds one row per record); on PostgreSQL `tx`
// is the writing transaction's id, which `ls` reads up to the oldest running transaction
// (features/collections/changes.repository.ts says why).
//
// Later migrations add their own tables' feeds with addCollectionChangeTriggers (exported here and
// frozen with it: a migration that calls it gets these exact triggers).

/** A table that feeds one collection's change log. */
export interface ChangeFeed {
  /** The collection's name (features/collections, e.g. 'userGroup'). */
  collection: string;
  table: string;
  /** The column of `table` naming the record: its own id, or (a child table) its parent's id. */
  recordColumn: string;
  /**
   * For a child table (a group's members): the table holding the record (with `id` and
   * `portal_id`); adding or removing a child row changes the parent record, and only while the
   * parent exists (a deleted parent's tombstone stays).
   */
  parentTable?: string;
  /** Only rows (of a child: parents, as `p`) for which this SQL is true feed it; `row` is NEW/OLD/p. */
  where?: (row: string) => string;
  /** Updates feed only when one of these columns changes (a lock's heartbeat is no change). */
  columns?: string[];
  /** A row that is gone though still stored (`deleted_at`, `revoked_at`): SQL true for a tombstone. */
  deletedWhen?: (row: string) => string;
}

const SQLITE_NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
const PG_NOW = `to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const EVENTS = ['insert', 'update', 'delete'] as const;

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;
const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
const triggerName = (feed: ChangeFeed) => `cc_${feed.collection}_${feed.table}`.toLowerCase();

/** The statements that record a change of the record `row` names (NEW or OLD, or r in plpgsql). */
function noteChange(feed: ChangeFeed, row: string, deleted: string, postgres: boolean): string {
  const c = quote(feed.collection);
  const now = postgres ? PG_NOW : SQLITE_NOW;
  const txColumn = postgres ? ', tx' : '';
  const txValue = postgres ? ', pg_current_xact_id()::text::bigint' : '';
  const id = `${row}.${feed.recordColumn}`;
  if (postgres) {
    // One upsert on the (portal, collection, record) key: its unique index is always the way in.
    // A delete by the same key was planned once per connection by plpgsql, while the log was
    // small: a sequential scan, kept as the log grew (100,000 lock events took minutes).
    const upsert = `on conflict (portal_id, collection, record_id) do update set
        seq = nextval('collection_changes_seq_seq'), changed_at = excluded.changed_at,
        deleted = excluded.deleted, tx = excluded.tx;`;
    if (feed.parentTable) {
      const parentWhere = feed.where ? ` and (${feed.where('p')})` : '';
      return `
      insert into collection_changes (portal_id, collection, record_id, changed_at, deleted, tx)
        select p.portal_id, ${c}, p.id, ${now}, 0${txValue} from ${feed.parentTable} p
        where p.id = ${id}${parentWhere}
        ${upsert}`;
    }
    return `
    insert into collection_changes (portal_id, collection, record_id, changed_at, deleted, tx)
      values (${row}.portal_id, ${c}, ${id}, ${now}, ${deleted}${txValue})
      ${upsert}`;
  }
  if (feed.parentTable) {
    const parentWhere = feed.where ? ` and (${feed.where('p')})` : '';
    return `
      delete from collection_changes where collection = ${c} and record_id = ${id}
        and portal_id in (select p.portal_id from ${feed.parentTable} p where p.id = ${id}${parentWhere});
      insert into collection_changes (portal_id, collection, record_id, changed_at, deleted${txColumn})
        select p.portal_id, ${c}, p.id, ${now}, 0${txValue} from ${feed.parentTable} p
        where p.id = ${id}${parentWhere};`;
  }
  return `
    delete from collection_changes
      where portal_id = ${row}.portal_id and collection = ${c} and record_id = ${id};
    insert into collection_changes (portal_id, collection, record_id, changed_at, deleted${txColumn})
      values (${row}.portal_id, ${c}, ${id}, ${now}, ${deleted}${txValue});`;
}

/** The SQL that a trigger of `event` applies to its row: the feed's condition and changed columns. */
function whenClause(feed: ChangeFeed, event: (typeof EVENTS)[number], postgres: boolean): string {
  const row = event === 'delete' ? 'OLD' : 'NEW';
  const parts: string[] = [];
  if (feed.where && !feed.parentTable) parts.push(`(${feed.where(row)})`);
  if (event === 'update' && feed.columns?.length) {
    const differs = postgres ? 'is distinct from' : 'is not';
    parts.push(`(${feed.columns.map((col) => `OLD.${col} ${differs} NEW.${col}`).join(' or ')})`);
  }
  return parts.length ? ` when (${parts.join(' and ')})` : '';
}

/** The `deleted` value of a change: 1 for a deleted row or one `deletedWhen` calls gone. */
function deletedValue(feed: ChangeFeed, event: (typeof EVENTS)[number], row: string): string {
  if (feed.parentTable) return '0';
  if (event === 'delete') return '1';
  return feed.deletedWhen ? `(case when ${feed.deletedWhen(row)} then 1 else 0 end)` : '0';
}

/**
 * Adds the triggers that keep `feed.collection`'s change log from `feed.table`, and writes a row for
 * each record already there (so a first `ls` lists them).
 */
export async function addCollectionChangeTriggers(db: Kysely<any>, feed: ChangeFeed): Promise<void> {
  const postgres = isPostgres(db);
  const name = triggerName(feed);
  if (postgres) {
    const branch = (event: (typeof EVENTS)[number]) =>
      `if tg_op = '${event.toUpperCase()}' then ${noteChange(feed, event === 'delete' ? 'OLD' : 'NEW', deletedValue(feed, event, 'NEW'), true)} end if;`;
    await sql
      .raw(
        `create function ${name}() returns trigger language plpgsql as $$
         begin
           ${EVENTS.map(branch).join('\n')}
           return null;
         end $$`,
      )
      .execute(db);
  }
  for (const event of EVENTS) {
    const of = event === 'update' && feed.columns?.length ? ` of ${feed.columns.join(', ')}` : '';
    const when = whenClause(feed, event, postgres);
    const body = postgres
      ? `for each row${when} execute function ${name}()`
      : `for each row${when} begin ${noteChange(feed, event === 'delete' ? 'OLD' : 'NEW', deletedValue(feed, event, 'NEW'), false)} end`;
    await sql.raw(`create trigger ${name}_${event} after ${event}${of} on ${feed.table} ${body}`).execute(db);
  }
  if (!feed.parentTable) {
    // (`where` is required before `on conflict` in SQLite's insert … select.)
    const where = ` where ${feed.where ? feed.where('t') : 'true'}`;
    const deleted = feed.deletedWhen ? `(case when ${feed.deletedWhen('t')} then 1 else 0 end)` : '0';
    await sql
      .raw(
        `insert into collection_changes (portal_id, collection, record_id, changed_at, deleted${postgres ? ', tx' : ''})
         select t.portal_id, ${quote(feed.collection)}, t.${feed.recordColumn}, ${postgres ? PG_NOW : SQLITE_NOW}, ${deleted}${postgres ? ', pg_current_xact_id()::text::bigint' : ''}
         from ${feed.table} t${where}
         on conflict (portal_id, collection, record_id) do nothing`,
      )
      .execute(db);
  }
}

/** Removes what addCollectionChangeTriggers added (for a migration's down). */
export async function dropCollectionChangeTriggers(db: Kysely<any>, feed: ChangeFeed): Promise<void> {
  const postgres = isPostgres(db);
  const name = triggerName(feed);
  for (const event of EVENTS) {
    await sql.raw(`drop trigger ${name}_${event}${postgres ? ` on ${feed.table}` : ''}`).execute(db);
  }
  if (postgres) await sql.raw(`drop function ${name}()`).execute(db);
  await sql`delete from collection_changes where collection = ${feed.collection}`.execute(db);
}

/** What a lock's record shows; its heartbeat (last seen) alone is no change. */
const DEVICE_COLUMNS = [
  'name',
  'model',
  'serial',
  'time_zone',
  'low_battery_level',
  'battery',
  'online',
  'lock_state',
  'firmware',
  'deleted_at',
];

/** The feeds of the collections of features/collections' first set (issue 21, item 3). */
const FEEDS: ChangeFeed[] = [
  // A deleted lock keeps its row (its history stays) with deleted_at set: a tombstone.
  ...(['device', 'crudDevices'] as const).map((collection): ChangeFeed => ({
    collection,
    table: 'devices',
    recordColumn: 'id',
    columns: DEVICE_COLUMNS,
    deletedWhen: (row) => `${row}.deleted_at is not null`,
  })),
  // Who reaches a lock directly: a basic user's `device` list changes with it.
  {
    collection: 'device',
    table: 'device_users',
    recordColumn: 'device_id',
    parentTable: 'devices',
    where: (row) => `${row}.deleted_at is null`,
  },
  // What locks report (features/events): added, and gone with their lock.
  { collection: 'history', table: 'device_events', recordColumn: 'id' },
  // A guest invite is deleted by setting deleted_at (its credential is revoked).
  {
    collection: 'lockInvite',
    table: 'device_invites',
    recordColumn: 'id',
    deletedWhen: (row) => `${row}.deleted_at is not null`,
  },
  { collection: 'lockout', table: 'lockouts', recordColumn: 'id' },
  { collection: 'lockout', table: 'lockout_devices', recordColumn: 'lockout_id', parentTable: 'lockouts' },
  { collection: 'userGroup', table: 'groups', recordColumn: 'id' },
  { collection: 'userGroup', table: 'group_users', recordColumn: 'group_id', parentTable: 'groups' },
  { collection: 'userGroup', table: 'group_devices', recordColumn: 'group_id', parentTable: 'groups' },
  // Cards and fingerprints are credentials of their kind; a revoked one is deleted for clients.
  ...(['rfid', 'fingerprint'] as const).map((kind): ChangeFeed => ({
    collection: kind === 'rfid' ? 'rfid' : 'fingerPrint',
    table: 'credentials',
    recordColumn: 'id',
    where: (row) => `${row}.kind = '${kind}'`,
    deletedWhen: (row) => `${row}.revoked_at is not null`,
  })),
  {
    collection: 'fingerPrint',
    table: 'credential_devices',
    recordColumn: 'credential_id',
    parentTable: 'credentials',
    where: (row) => `${row}.kind = 'fingerprint' and ${row}.revoked_at is null`,
  },
  // A person's membership of the portal (features/members), named by the person's id.
  { collection: 'userPortal', table: 'memberships', recordColumn: 'user_id' },
];

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db);
  await db.schema
    .createTable('collection_changes')
    .addColumn('seq', postgres ? 'bigserial' : 'integer', (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement().notNull(),
    )
    .addColumn('portal_id', 'text', (c) => c.notNull())
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull())
    // PostgreSQL: the writing transaction's id (pg_current_xact_id); null on SQLite.
    .addColumn('tx', 'bigint')
    .execute();
  await db.schema
    .createIndex('collection_changes_record')
    .unique()
    .on('collection_changes')
    .columns(['portal_id', 'collection', 'record_id'])
    .execute();
  await db.schema
    .createIndex('collection_changes_order')
    .on('collection_changes')
    .columns(postgres ? ['portal_id', 'collection', 'tx', 'seq'] : ['portal_id', 'collection', 'seq'])
    .execute();
  for (const feed of FEEDS) await addCollectionChangeTriggers(db, feed);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const feed of [...FEEDS].reverse()) await dropCollectionChangeTriggers(db, feed);
  await db.schema.dropTable('collection_changes').execute();
}

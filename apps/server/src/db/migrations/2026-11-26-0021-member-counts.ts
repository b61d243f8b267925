import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
//
// How many members each portal has in each role and status, kept by triggers on memberships: the
// total of a people list without a search, and the dashboard's counts. Counting them took 40 ms at
// 500,000 members (every entry of an index), on every page of the list.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('member_counts')
    .addColumn('portal_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('members', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('member_counts_pk', ['portal_id', 'role', 'status'])
    .execute();
  await sql`
    insert into member_counts (portal_id, role, status, members)
    select portal_id, role, status, count(*) from memberships group by portal_id, role, status
  `.execute(db);

  const add = (row: 'new' | 'old', delta: 1 | -1) =>
    `insert into member_counts (portal_id, role, status, members)
     values (${row}.portal_id, ${row}.role, ${row}.status, ${delta})
     on conflict (portal_id, role, status) do update set members = member_counts.members + ${delta};`;
  if (postgres) {
    await sql
      .raw(
        `create function member_counts_from_memberships() returns trigger language plpgsql as $$
         begin
           if tg_op in ('UPDATE', 'DELETE') then ${add('old', -1)} end if;
           if tg_op in ('UPDATE', 'INSERT') then ${add('new', 1)} end if;
           return null;
         end $$`,
      )
      .execute(db);
    await sql`
      create trigger memberships_count
      after insert or delete or update of portal_id, role, status on memberships
      for each row execute function member_counts_from_memberships()
    `.execute(db);
  } else {
    for (const statement of [
      `create trigger memberships_count_insert after insert on memberships begin ${add('new', 1)} end`,
      `create trigger memberships_count_delete after delete on memberships begin ${add('old', -1)} end`,
      `create trigger memberships_count_update after update of portal_id, role, status on memberships
       begin ${add('old', -1)} ${add('new', 1)} end`,
    ]) {
      await sql.raw(statement).execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop trigger memberships_count on memberships`.execute(db);
    await sql`drop function member_counts_from_memberships()`.execute(db);
  } else {
    for (const trigger of [
      'memberships_count_insert',
      'memberships_count_delete',
      'memberships_count_update',
    ]) {
      await sql`drop trigger ${sql.id(trigger)}`.execute(db);
    }
  }
  await db.schema.dropTable('member_counts').execute();
}

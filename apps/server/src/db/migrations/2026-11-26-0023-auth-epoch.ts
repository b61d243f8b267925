import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
//
// One number that every change to who may do what moves on: any change to a person's account
// (status, token version, platform role, name), to a membership (added, removed, role, status,
// label) or to a portal. Raised by triggers in the changing transaction, so it moves exactly when
// the change commits. A server keeps each person's sign-in (their account and memberships) with
// the number it read before loading them, and reuses it only while the number has not moved
// (features/auth/session-cache.ts): a suspension or sign-out made on any server takes effect on
// every server's next request, and a request costs one one-row read instead of two joins.
const WATCHED = [
  ['users', ['update', 'delete']],
  ['memberships', ['insert', 'update', 'delete']],
  ['portals', ['update', 'delete']],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('auth_epoch')
    .addColumn('id', 'integer', (c) => c.primaryKey().notNull())
    .addColumn('epoch', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into auth_epoch (id, epoch) values (1, 0)`.execute(db);

  if (postgres) {
    await sql`
      create function raise_auth_epoch() returns trigger language plpgsql as $$
      begin
        update auth_epoch set epoch = epoch + 1 where id = 1;
        return null;
      end $$
    `.execute(db);
    // Once per statement (a bulk insert of memberships raises it once), and before it touches a
    // row: concurrent changes queue on the one epoch row before they lock any of their own, so two
    // of them never wait on each other in opposite orders.
    for (const [table, events] of WATCHED) {
      await sql
        .raw(
          `create trigger ${table}_auth_epoch before ${events.join(' or ')} on ${table}
           for each statement execute function raise_auth_epoch()`,
        )
        .execute(db);
    }
  } else {
    for (const [table, events] of WATCHED) {
      for (const event of events) {
        await sql
          .raw(
            `create trigger ${table}_auth_epoch_${event} after ${event} on ${table}
             begin update auth_epoch set epoch = epoch + 1 where id = 1; end`,
          )
          .execute(db);
      }
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const [table] of WATCHED) await sql.raw(`drop trigger ${table}_auth_epoch on ${table}`).execute(db);
    await sql`drop function raise_auth_epoch()`.execute(db);
  } else {
    for (const [table, events] of WATCHED) {
      for (const event of events) await sql.raw(`drop trigger ${table}_auth_epoch_${event}`).execute(db);
    }
  }
  await db.schema.dropTable('auth_epoch').execute();
}

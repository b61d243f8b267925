import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
//
// Search and sorted paging over large portals (issue 11):
// - member_directory: one row per membership with what the portal shows and searches (the account's
//   email, the portal's label or else the account's name), kept by triggers on memberships and users,
//   so a people list sorts, pages (keyset) and searches one table through its indexes instead of
//   sorting the join of memberships and users.
// - Substring search by trigrams: on PostgreSQL pg_trgm GIN indexes on the lowered columns, which
//   `lower(column) like '%term%'` uses as is; on SQLite FTS5 tables with the trigram tokenizer
//   (`search_members`, `search_devices`), kept by triggers. FTS5 needs an integer row id: a member's
//   is member_directory.rid, a lock's comes from search_device_keys (devices.id is text, and an
//   implicit rowid may change on VACUUM). The `search_` tables exist on SQLite only.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('member_directory')
    .addColumn('rid', postgres ? 'bigint' : 'integer', (c) =>
      postgres ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey().notNull(),
    )
    .addColumn('portal_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('member_directory_member_idx')
    .on('member_directory')
    .columns(['portal_id', 'user_id'])
    .unique()
    .execute();
  await db.schema.createIndex('member_directory_user_idx').on('member_directory').column('user_id').execute();
  // The people list's sort orders, each ending with the id that breaks ties (and keys the keyset).
  for (const column of ['email', 'first_name', 'last_name']) {
    await db.schema
      .createIndex(`member_directory_${column}_idx`)
      .on('member_directory')
      .columns(['portal_id', column, 'user_id'])
      .execute();
  }
  // The lock list's default order (by name), with the tie-breaking id, for keyset pages.
  await db.schema
    .createIndex('devices_portal_name_id_idx')
    .on('devices')
    .columns(['portal_id', 'name', 'id'])
    .execute();

  if (postgres) await upPostgres(db);
  else await upSqlite(db);

  await sql`
    insert into member_directory (portal_id, user_id, email, first_name, last_name)
    select m.portal_id, m.user_id, u.email, coalesce(m.first_name, u.first_name), coalesce(m.last_name, u.last_name)
    from memberships m join users u on u.id = m.user_id
  `.execute(db);
  if (!postgres) {
    await sql`insert into search_device_keys (device_id) select id from devices`.execute(db);
    await sql`
      insert into search_devices (rowid, name, serial)
      select k.rid, d.name, d.serial from search_device_keys k join devices d on d.id = k.device_id
    `.execute(db);
  }
}

async function upPostgres(db: Kysely<any>) {
  // pg_trgm ships with PostgreSQL (contrib) and is a trusted extension: a database owner may create it.
  await sql`create extension if not exists pg_trgm`.execute(db);
  for (const [table, column] of [
    ['member_directory', 'email'],
    ['member_directory', 'first_name'],
    ['member_directory', 'last_name'],
    ['devices', 'name'],
    ['devices', 'serial'],
  ] as const) {
    await sql`create index ${sql.id(`${table}_${column}_trgm_idx`)} on ${sql.id(table)} using gin (lower(${sql.ref(column)}) gin_trgm_ops)`.execute(
      db,
    );
  }

  await sql`
    create function member_directory_from_memberships() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into member_directory (portal_id, user_id, email, first_name, last_name)
        select new.portal_id, new.user_id, u.email, coalesce(new.first_name, u.first_name),
               coalesce(new.last_name, u.last_name)
        from users u where u.id = new.user_id;
      elsif tg_op = 'UPDATE' then
        update member_directory d
        set portal_id = new.portal_id, user_id = new.user_id, email = u.email,
            first_name = coalesce(new.first_name, u.first_name), last_name = coalesce(new.last_name, u.last_name)
        from users u
        where u.id = new.user_id and d.portal_id = old.portal_id and d.user_id = old.user_id;
      else
        delete from member_directory where portal_id = old.portal_id and user_id = old.user_id;
      end if;
      return null;
    end $$
  `.execute(db);
  await sql`
    create trigger memberships_directory
    after insert or delete or update of portal_id, user_id, first_name, last_name on memberships
    for each row execute function member_directory_from_memberships()
  `.execute(db);
  await sql`
    create function member_directory_from_users() returns trigger language plpgsql as $$
    begin
      update member_directory d
      set email = new.email, first_name = coalesce(m.first_name, new.first_name),
          last_name = coalesce(m.last_name, new.last_name)
      from memberships m
      where d.user_id = new.id and m.portal_id = d.portal_id and m.user_id = d.user_id;
      return null;
    end $$
  `.execute(db);
  await sql`
    create trigger users_directory after update of email, first_name, last_name on users
    for each row execute function member_directory_from_users()
  `.execute(db);
}

async function upSqlite(db: Kysely<any>) {
  const statements = [
    // Contentless (the text lives in member_directory and devices); contentless_delete lets a row go.
    `create virtual table search_members using fts5(email, first_name, last_name,
       content='', contentless_delete=1, tokenize='trigram')`,
    `create trigger member_directory_search_insert after insert on member_directory begin
       insert into search_members (rowid, email, first_name, last_name)
       values (new.rid, new.email, new.first_name, new.last_name);
     end`,
    `create trigger member_directory_search_update after update on member_directory begin
       delete from search_members where rowid = old.rid;
       insert into search_members (rowid, email, first_name, last_name)
       values (new.rid, new.email, new.first_name, new.last_name);
     end`,
    `create trigger member_directory_search_delete after delete on member_directory begin
       delete from search_members where rowid = old.rid;
     end`,
    `create trigger memberships_directory_insert after insert on memberships begin
       insert into member_directory (portal_id, user_id, email, first_name, last_name)
       select new.portal_id, new.user_id, u.email, coalesce(new.first_name, u.first_name),
              coalesce(new.last_name, u.last_name)
       from users u where u.id = new.user_id;
     end`,
    `create trigger memberships_directory_update
     after update of portal_id, user_id, first_name, last_name on memberships begin
       update member_directory
       set portal_id = new.portal_id, user_id = new.user_id, email = u.email,
           first_name = coalesce(new.first_name, u.first_name), last_name = coalesce(new.last_name, u.last_name)
       from users u
       where u.id = new.user_id and member_directory.portal_id = old.portal_id
         and member_directory.user_id = old.user_id;
     end`,
    `create trigger memberships_directory_delete after delete on memberships begin
       delete from member_directory where portal_id = old.portal_id and user_id = old.user_id;
     end`,
    `create trigger users_directory_update after update of email, first_name, last_name on users begin
       update member_directory
       set email = new.email, first_name = coalesce(m.first_name, new.first_name),
           last_name = coalesce(m.last_name, new.last_name)
       from memberships m
       where member_directory.user_id = new.id and m.portal_id = member_directory.portal_id
         and m.user_id = member_directory.user_id;
     end`,
    `create table search_device_keys (rid integer primary key, device_id text not null unique)`,
    `create virtual table search_devices using fts5(name, serial,
       content='', contentless_delete=1, tokenize='trigram')`,
    `create trigger devices_search_insert after insert on devices begin
       insert into search_device_keys (device_id) values (new.id);
       insert into search_devices (rowid, name, serial)
       values ((select rid from search_device_keys where device_id = new.id), new.name, new.serial);
     end`,
    `create trigger devices_search_update after update of id, name, serial on devices begin
       delete from search_devices where rowid = (select rid from search_device_keys where device_id = old.id);
       update search_device_keys set device_id = new.id where device_id = old.id;
       insert into search_devices (rowid, name, serial)
       values ((select rid from search_device_keys where device_id = new.id), new.name, new.serial);
     end`,
    `create trigger devices_search_delete after delete on devices begin
       delete from search_devices where rowid = (select rid from search_device_keys where device_id = old.id);
       delete from search_device_keys where device_id = old.id;
     end`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`drop trigger users_directory on users`.execute(db);
    await sql`drop trigger memberships_directory on memberships`.execute(db);
    await sql`drop function member_directory_from_users()`.execute(db);
    await sql`drop function member_directory_from_memberships()`.execute(db);
    await sql`drop index devices_name_trgm_idx`.execute(db);
    await sql`drop index devices_serial_trgm_idx`.execute(db);
  } else {
    for (const trigger of [
      'users_directory_update',
      'memberships_directory_delete',
      'memberships_directory_update',
      'memberships_directory_insert',
      'devices_search_delete',
      'devices_search_update',
      'devices_search_insert',
    ]) {
      await sql`drop trigger ${sql.id(trigger)}`.execute(db);
    }
    await db.schema.dropTable('search_devices').execute();
    await db.schema.dropTable('search_device_keys').execute();
    await db.schema.dropTable('search_members').execute();
  }
  await db.schema.dropIndex('devices_portal_name_id_idx').execute();
  await db.schema.dropTable('member_directory').execute();
}

import type { Database } from '../../db/database';
import type { UserRow } from '../../db/schema';

// People are global (one account, many portals); portal-owned data lives elsewhere. Every feature
// may read a person; only the auth feature changes one (features/auth/users.repository.ts) and only
// accounts.ts creates one.

export function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

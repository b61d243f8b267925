import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { UserRow } from '../../db/schema';

// People are global (one account, many portals); portal-owned data lives elsewhere. Accounts are
// created by accounts.ts only (the one insert into `users`).

export function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function updateUserName(
  db: Database,
  id: string,
  name: { firstName: string; lastName: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ first_name: name.firstName, last_name: name.lastName, updated_at: nowIso() })
    .where('id', '=', id)
    .execute();
}

/** Sets a new password hash and revokes every token issued so far. */
export async function updatePasswordHash(db: Database, id: string, passwordHash: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({
      password_hash: passwordHash,
      token_version: eb('token_version', '+', 1),
      updated_at: nowIso(),
    }))
    .where('id', '=', id)
    .execute();
}

/** Revokes every token issued so far (sign-out everywhere). */
export async function bumpTokenVersion(db: Database, id: string): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ token_version: eb('token_version', '+', 1), updated_at: nowIso() }))
    .where('id', '=', id)
    .execute();
}

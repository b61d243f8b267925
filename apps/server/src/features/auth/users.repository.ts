import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';

// Changes to a person's own account (name, password, sign-out everywhere), made by the auth
// feature only. Reading people is in the base (base/identity/users.repository.ts); accounts are
// created by accounts.ts only (the one insert into `users`).

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

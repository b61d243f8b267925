import type { PasswordChange, ProfileUpdate } from '@latchkey/shared';
import type { Database } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import { assertAcceptablePassword, hashPassword, verifyPassword } from './password';
import { updatePasswordHash, updateUserName } from './users.repository';
import { findUserById } from '../../base/identity/users.repository';

// A person's own changes to their account. Accounts are created in accounts.ts only.

/** A person changes their own name. */
export async function updateProfile(db: Database, user: UserRow, update: ProfileUpdate): Promise<UserRow> {
  await updateUserName(db, user.id, update);
  return (await findUserById(db, user.id))!;
}

/**
 * A person changes their password after proving the current one; every other session ends.
 * Returns the person with their new token version, for a fresh token.
 */
export async function changePassword(db: Database, user: UserRow, change: PasswordChange): Promise<UserRow> {
  if (!(await verifyPassword(user.password_hash, change.currentPassword))) {
    const message = 'is not your current password';
    throw AppError.badRequest(`currentPassword ${message}`, [{ path: 'body.currentPassword', message }]);
  }
  assertAcceptablePassword(change.newPassword, 'newPassword');
  await updatePasswordHash(db, user.id, await hashPassword(change.newPassword));
  return (await findUserById(db, user.id))!;
}

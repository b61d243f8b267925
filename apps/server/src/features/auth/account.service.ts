import crypto from 'node:crypto';
import type { CreateAccountInput, PasswordChange, ProfileUpdate } from '@latchkey/shared';
import { isUniqueViolation, type Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { insertOwnedPortal } from '../portals/portals.repository';
import { assertAcceptablePassword, hashPassword, verifyPassword } from './password';
import {
  findUserByEmail,
  findUserById,
  insertUser,
  updatePasswordHash,
  updateUserName,
} from './users.repository';

const DUPLICATE_EMAIL = 'An account with this email already exists';

/** The name a new portal gets when the person does not choose one. */
function defaultPortalName(input: { firstName: string; email: string }): string {
  return `${input.firstName || input.email.split('@')[0]}'s portal`;
}

/**
 * Creates a person and the portal they own (their `portalOwned`), with them as its admin.
 * A taken email is a 409.
 */
export async function createAccount(
  db: Database,
  input: Required<Omit<CreateAccountInput, 'portalName'>> & { portalName?: string },
  options: { platformRole?: 'superAdmin'; timeZone?: string; emailVerified?: boolean } = {},
): Promise<UserRow> {
  assertAcceptablePassword(input.password);
  if (await findUserByEmail(db, input.email)) throw AppError.conflict(DUPLICATE_EMAIL);
  const passwordHash = await hashPassword(input.password);
  const now = nowIso();
  const userId = crypto.randomUUID();
  const portalId = crypto.randomUUID();
  try {
    await db.transaction().execute(async (trx) => {
      await insertUser(trx, {
        id: userId,
        email: input.email,
        password_hash: passwordHash,
        first_name: input.firstName,
        last_name: input.lastName,
        platform_role: options.platformRole ?? null,
        status: 'active',
        email_verified_at: options.emailVerified ? now : null,
        created_at: now,
        updated_at: now,
      });
      await insertOwnedPortal(trx, {
        portalId,
        userId,
        name: input.portalName || defaultPortalName(input),
        timeZone: options.timeZone ?? 'UTC',
        now,
      });
    });
  } catch (error) {
    // Two sign-ups with one email at the same moment: the unique index decides.
    if (isUniqueViolation(error)) throw AppError.conflict(DUPLICATE_EMAIL);
    throw error;
  }
  return (await findUserById(db, userId))!;
}

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

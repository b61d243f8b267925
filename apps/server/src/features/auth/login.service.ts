import type { LoginPayload } from '@latchkey/shared';
import type { Database } from '../../db/database';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import type { AuthLimits } from './auth-limits';
import { verifyAgainstDecoy, verifyPassword } from './password';
import { findUserByEmail } from '../../base/identity/users.repository';

const INVALID = () => new AppError('invalid_credentials', 'Email or password is wrong', 401);

/**
 * Checks a sign-in. The same answer for an unknown email and a wrong password, in the same
 * time; the admin host's sign-in is for platform staff only.
 */
export async function checkLogin(
  db: Database,
  limits: AuthLimits,
  payload: Required<LoginPayload>,
  ip: string,
): Promise<UserRow> {
  await limits.countLoginAttempt(ip, payload.email);
  const user = await findUserByEmail(db, payload.email);
  const valid = user
    ? await verifyPassword(user.password_hash, payload.password)
    : await verifyAgainstDecoy(payload.password);
  if (!user || !valid) {
    await limits.countLoginFailure(ip, payload.email);
    throw INVALID();
  }
  await limits.clearLoginFailures(ip, payload.email);
  if (user.status !== 'active') throw AppError.forbidden('Your account is suspended');
  if (payload.systemType === 'admin' && user.platform_role !== 'superAdmin') {
    throw AppError.forbidden('This sign-in is for platform staff');
  }
  return user;
}

import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import { sendMail } from '../../base/mail/send-mail';
import { passwordResetMail, verificationMail } from '../../base/mail/mail.templates';
import { consumeAccountToken, consumeAccountTokenOf, issueAccountToken } from './account-tokens.repository';
import { assertAcceptablePassword, hashPassword, verifyPassword } from './password';
import { updatePasswordHash } from './users.repository';
import { findUserByEmail, findUserById } from '../../base/identity/users.repository';

// Email verification and password reset: links in mail carrying single-use tokens. Requests answer
// the same whether or not an account exists, so they cannot be used to find out who has one.

export const VERIFY_TTL_MINUTES = 24 * 60;
export const RESET_TTL_MINUTES = 60;

const displayName = (user: UserRow) => user.first_name || user.email;

/** Queues the verification mail for a person whose address is not confirmed yet. */
export async function sendVerificationMail(db: Database, publicUrl: string, user: UserRow): Promise<void> {
  if (user.email_verified_at) return;
  const token = await issueAccountToken(db, user.id, 'verify_email', VERIFY_TTL_MINUTES);
  const mail = verificationMail({ name: displayName(user), link: `${publicUrl}/verify?token=${token}` });
  await sendMail(db, 'to-requester', { portalId: null, template: 'verify_email', to: user.email, ...mail });
}

/** POST auth/activation/{email}: (re)sends the verification mail if there is an unverified account. */
export async function requestActivation(db: Database, publicUrl: string, email: string): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (user && user.status === 'active') await sendVerificationMail(db, publicUrl, user);
}

/**
 * POST auth/verify: confirms the address behind a verification link: the account's own, or the new
 * one of an email change, which then becomes the account's address.
 */
export async function verifyEmail(db: Database, token: string): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const used = await consumeAccountTokenOf(trx, ['verify_email', 'change_email'], token);
    if (!used) throw invalidLink();
    if (used.purpose === 'change_email' && used.new_email) {
      if (await findUserByEmail(trx, used.new_email)) throw AppError.conflict(TAKEN_EMAIL);
      await trx
        .updateTable('users')
        .set({ email: used.new_email, email_verified_at: nowIso(), updated_at: nowIso() })
        .where('id', '=', used.user_id)
        .execute();
    } else {
      await trx
        .updateTable('users')
        .set({ email_verified_at: nowIso(), updated_at: nowIso() })
        .where('id', '=', used.user_id)
        .where('email_verified_at', 'is', null)
        .execute();
    }
    return (await findUserById(trx, used.user_id))!;
  });
}

const TAKEN_EMAIL = 'An account with this email already exists';

/**
 * POST auth/email: asks to move the account to a new address, after the current password. The
 * address changes only once the link mailed to the new address is followed; until then the old
 * one stays (and keeps working for sign-in).
 */
export async function requestEmailChange(
  db: Database,
  publicUrl: string,
  user: UserRow,
  change: { newEmail: string; password: string },
): Promise<void> {
  await confirmPassword(user, change.password);
  if (change.newEmail === user.email) {
    const message = 'is already your address';
    throw AppError.badRequest(`newEmail ${message}`, [{ path: 'body.newEmail', message }]);
  }
  if (await findUserByEmail(db, change.newEmail)) throw AppError.conflict(TAKEN_EMAIL);
  const token = await issueAccountToken(
    db,
    user.id,
    'change_email',
    VERIFY_TTL_MINUTES,
    null,
    change.newEmail,
  );
  const mail = verificationMail({ name: displayName(user), link: `${publicUrl}/verify?token=${token}` });
  await sendMail(db, 'to-requester', {
    portalId: null,
    template: 'change_email',
    to: change.newEmail,
    ...mail,
  });
}

/** POST auth/resetPassword/{email}: mails a reset link if the account exists. */
export async function requestPasswordReset(db: Database, publicUrl: string, email: string): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (!user || user.status !== 'active') return;
  const token = await issueAccountToken(db, user.id, 'reset_password', RESET_TTL_MINUTES);
  const mail = passwordResetMail({ name: displayName(user), link: `${publicUrl}/auth/reset?token=${token}` });
  await sendMail(db, 'to-requester', { portalId: null, template: 'reset_password', to: user.email, ...mail });
}

/**
 * POST auth/reset (and the legacy /reset/{resetToken}): sets the new password and ends every
 * session. Following the link also proves the address, so it counts as verified.
 */
export async function resetPassword(db: Database, token: string, password: string, field = 'password') {
  assertAcceptablePassword(password, field);
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const userId = await consumeAccountToken(trx, 'reset_password', token);
    if (!userId) throw invalidLink();
    await updatePasswordHash(trx, userId, passwordHash);
    await trx
      .updateTable('users')
      .set({ email_verified_at: nowIso() })
      .where('id', '=', userId)
      .where('email_verified_at', 'is', null)
      .execute();
    return (await findUserById(trx, userId))!;
  });
}

/** POST auth/passwordVerify: 400 unless `password` is the person's current one. */
export async function confirmPassword(user: UserRow, password: string): Promise<void> {
  if (!(await verifyPassword(user.password_hash, password))) {
    const message = 'is not your current password';
    throw AppError.badRequest(`password ${message}`, [{ path: 'body.password', message }]);
  }
}

function invalidLink() {
  return AppError.badRequest(
    'This link is not valid any more: it was used, replaced by a newer one, or has expired',
  );
}

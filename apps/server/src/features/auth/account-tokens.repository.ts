import crypto from 'node:crypto';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { AccountTokenPurpose } from '../../db/schema';

const hashToken = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

/**
 * Issues a single-use token for a person and purpose, valid for `ttlMinutes`; earlier unused tokens
 * of the same purpose stop working, so only the newest link counts. Answers the token itself,
 * which only the mail carries.
 */
export async function issueAccountToken(
  db: Database,
  userId: string,
  purpose: AccountTokenPurpose,
  ttlMinutes: number,
  portalId: string | null = null,
  newEmail: string | null = null,
): Promise<string> {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = new Date();
  await db
    .updateTable('account_tokens')
    .set({ used_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('portal_id', portalId === null ? 'is' : '=', portalId)
    .where('used_at', 'is', null)
    .execute();
  await db
    .insertInto('account_tokens')
    .values({
      id: crypto.randomUUID(),
      user_id: userId,
      purpose,
      portal_id: portalId,
      new_email: newEmail,
      token_hash: hashToken(token),
      expires_at: new Date(now.getTime() + ttlMinutes * 60_000).toISOString(),
      created_at: now.toISOString(),
    })
    .execute();
  return token;
}

/**
 * Uses a token once: answers its person's id if it exists for this purpose, is unused and has not
 * expired, and marks it used in the same statement, so two concurrent uses cannot both succeed.
 */
export async function consumeAccountToken(
  db: Database,
  purpose: AccountTokenPurpose,
  token: string,
): Promise<string | null> {
  return (await consumeAccountTokenOf(db, [purpose], token))?.user_id ?? null;
}

/** consumeAccountToken for a token of any of `purposes`; answers the used row. */
export async function consumeAccountTokenOf(db: Database, purposes: AccountTokenPurpose[], token: string) {
  const now = nowIso();
  return db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'purpose', 'new_email'])
    .executeTakeFirst();
}

/** A token's row without using it (to show what an invitation link is for), or undefined. */
export function findAccountToken(db: Database, purpose: AccountTokenPurpose, token: string) {
  return db
    .selectFrom('account_tokens')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .executeTakeFirst();
}

/** Marks one token used. */
export async function markAccountTokenUsed(db: Database, id: string): Promise<void> {
  await db.updateTable('account_tokens').set({ used_at: nowIso() }).where('id', '=', id).execute();
}

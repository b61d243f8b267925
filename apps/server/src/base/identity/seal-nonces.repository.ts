import type { Database } from '../../db/database';
import { isUniqueViolation } from '../../db/database';

// Values that may be used once, until they expire: the nonces of sealed envelopes (keyed by the
// client's public key) and the ids of used pre-authentication tokens (key PRE_AUTH_TOKEN_KEY).
// Kept in the database, so every server of a deployment refuses a second use.

/** Records an envelope's (client key, nonce) pair; false if it was seen before (a replay). */
export async function recordSealNonce(
  db: Database,
  clientKey: string,
  nonce: string,
  expiresAt: string,
): Promise<boolean> {
  try {
    await db
      .insertInto('seal_nonces')
      .values({ client_key: clientKey, nonce, expires_at: expiresAt })
      .execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** Whether a (key, nonce) pair was recorded (and not purged yet). */
export async function isSealNonceRecorded(db: Database, clientKey: string, nonce: string): Promise<boolean> {
  const row = await db
    .selectFrom('seal_nonces')
    .select('nonce')
    .where('client_key', '=', clientKey)
    .where('nonce', '=', nonce)
    .executeTakeFirst();
  return row !== undefined;
}

/** Forgets nonces too old to be accepted anyway. */
export async function purgeExpiredSealNonces(db: Database, now: string): Promise<void> {
  await db.deleteFrom('seal_nonces').where('expires_at', '<', now).execute();
}

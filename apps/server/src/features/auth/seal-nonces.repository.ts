import type { Database } from '../../db/database';
import { isUniqueViolation } from '../../db/database';

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

/** Forgets nonces too old to be accepted anyway. */
export async function purgeExpiredSealNonces(db: Database, now: string): Promise<void> {
  await db.deleteFrom('seal_nonces').where('expires_at', '<', now).execute();
}

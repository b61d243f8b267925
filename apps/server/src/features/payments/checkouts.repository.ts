import crypto from 'node:crypto';
import type { CheckoutStatus, PaymentProviderName } from '@latchkey/shared';
import type { Insertable } from 'kysely';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { CheckoutRow, CheckoutsTable } from '../../db/schema';

// Checkouts are not all a portal's (a visitor's shop order has none), so a checkout is found by its
// own id plus the token its browser holds, or by the provider's session id in a verified webhook.

/** A new token for a checkout's browser, and the hash kept of it. */
export function newCheckoutToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(24).toString('base64url');
  return { token, hash: hashCheckoutToken(token) };
}

export function hashCheckoutToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

export async function insertCheckout(db: Database, row: Insertable<CheckoutsTable>): Promise<void> {
  await db.insertInto('checkouts').values(row).execute();
}

export function findCheckout(db: Database, id: string): Promise<CheckoutRow | undefined> {
  return db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A checkout by its id, only with the token its browser was given. */
export async function findCheckoutWithToken(
  db: Database,
  id: string,
  token: string,
): Promise<CheckoutRow | undefined> {
  const row = await findCheckout(db, id);
  if (!row) return undefined;
  const given = Buffer.from(hashCheckoutToken(token), 'hex');
  const kept = Buffer.from(row.token_hash, 'hex');
  return given.length === kept.length && crypto.timingSafeEqual(given, kept) ? row : undefined;
}

export function findCheckoutBySession(
  db: Database,
  provider: PaymentProviderName,
  sessionId: string,
): Promise<CheckoutRow | undefined> {
  return db
    .selectFrom('checkouts')
    .selectAll()
    .where('provider', '=', provider)
    .where('provider_session_id', '=', sessionId)
    .executeTakeFirst();
}

export async function setCheckoutSession(db: Database, id: string, sessionId: string): Promise<void> {
  await db.updateTable('checkouts').set({ provider_session_id: sessionId }).where('id', '=', id).execute();
}

/**
 * Moves a checkout from one of `from` (default: open) to `status`; answers false when it was in
 * none of them (another webhook, server or the sweep got there first), so what follows happens once.
 */
export async function closeCheckout(
  db: Database,
  id: string,
  status: Exclude<CheckoutStatus, 'open'>,
  at = nowIso(),
  from: CheckoutStatus[] = ['open'],
): Promise<boolean> {
  const result = await db
    .updateTable('checkouts')
    .set({ status, completed_at: at })
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** An open checkout ends no sooner than `until` (its payment page was opened). */
export async function extendCheckout(db: Database, id: string, until: Date): Promise<void> {
  await db
    .updateTable('checkouts')
    .set({ expires_at: until.toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .where('expires_at', '<', until.toISOString())
    .execute();
}

/** Open checkouts past their expiry, oldest first (the sweep ends them). */
export function listOverdueCheckouts(db: Database, now: Date, limit = 100): Promise<CheckoutRow[]> {
  return db
    .selectFrom('checkouts')
    .selectAll()
    .where('status', '=', 'open')
    .where('expires_at', '<', now.toISOString())
    .orderBy('expires_at')
    .limit(limit)
    .execute();
}

import crypto from 'node:crypto';
import { closeMonth, issuerOf } from '../src/features/billing/billing.service';
import { recordPlanChange } from '../src/features/billing/plan-history';
import type { TestApp } from './test-app';

/** Moves a portal's creation back, so months before today can be billed for it. */
export async function backdatePortal(t: TestApp, portalId: string, createdAt = '2025-01-01T00:00:00.000Z') {
  await t.app.db.updateTable('portals').set({ created_at: createdAt }).where('id', '=', portalId).execute();
}

/**
 * Adds a lock to a portal's history directly in the database (as it was at `createdAt`, deleted at
 * `deletedAt`): bills read locks from the past, which the API cannot add.
 */
export async function addLock(
  t: TestApp,
  portalId: string,
  name: string,
  createdAt: string,
  deletedAt: string | null = null,
): Promise<string> {
  const id = crypto.randomUUID();
  await t.app.db
    .insertInto('devices')
    .values({
      id,
      portal_id: portalId,
      name,
      model: 'latchkey-sim',
      serial: null,
      time_zone: 'UTC',
      secret_hash: crypto.createHash('sha256').update(id).digest('hex'),
      battery: null,
      last_seen_at: null,
      created_at: createdAt,
      updated_at: createdAt,
      deleted_at: deletedAt,
    })
    .execute();
  return id;
}

/**
 * A closed bill for a portal: backdated to 2025, on pro in August and September 2025 with one
 * lock, and September 2025 closed. Answers the bill's id.
 */
export async function closedBillFor(t: TestApp, portalId: string): Promise<string> {
  await backdatePortal(t, portalId);
  await recordPlanChange(t.app.db, portalId, 'pro', '2025-08-01T00:00:00Z');
  // Back on free from October 2025: the portal is on the plan it started with today.
  await recordPlanChange(t.app.db, portalId, 'free', '2025-10-01T00:00:00Z');
  await addLock(t, portalId, 'Billed door', '2025-08-15T00:00:00.000Z');
  const bill = await closeMonth(t.app.db, issuerOf(t.app.config), portalId, 2025, 9);
  return bill._id!;
}

import type { AuditAction, AuditEntityType } from '@latchkey/shared';
import crypto from 'node:crypto';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import { appendAuditEntry } from '../../base/audit/audit.repository';

/** A money-related change: a plan, a payment, an order, stock. */
export interface MoneyChange {
  portalId: string | null;
  /** Who did it; null for the payment provider (webhooks) and the sweep. */
  actorUserId: string | null;
  ip?: string | null;
  action: AuditAction;
  entityType: AuditEntityType;
  entityId: string;
  before?: unknown;
  after?: unknown;
}

/**
 * Records a money-related change in the commerce audit (every one, with or without a portal) and,
 * when it concerns a portal, in that portal's change log too. Call it in the change's transaction.
 */
export async function recordMoneyChange(db: Database, change: MoneyChange): Promise<void> {
  await db
    .insertInto('commerce_audit')
    .values({
      id: crypto.randomUUID(),
      portal_id: change.portalId,
      actor_user_id: change.actorUserId,
      action: change.action,
      entity_type: change.entityType,
      entity_id: change.entityId,
      before_json: change.before === undefined ? null : JSON.stringify(change.before),
      after_json: change.after === undefined ? null : JSON.stringify(change.after),
      ip: change.ip ?? null,
      created_at: nowIso(),
    })
    .execute();
  if (change.portalId) {
    await appendAuditEntry(db, change.portalId, {
      actorUserId: change.actorUserId,
      ip: change.ip ?? null,
      action: change.action,
      entityType: change.entityType,
      entityId: change.entityId,
      before: change.before,
      after: change.after,
    });
  }
}

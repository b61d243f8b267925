import crypto from 'node:crypto';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';

export interface AuditEntry {
  actorUserId: string | null;
  action: string;
  entityType: string;
  entityId: string;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
}

/** Appends an entry to a portal's admin change log. Entries are never updated or deleted. */
export async function appendAuditEntry(db: Database, portalId: string, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      id: crypto.randomUUID(),
      portal_id: portalId,
      actor_user_id: entry.actorUserId,
      action: entry.action,
      entity_type: entry.entityType,
      entity_id: entry.entityId,
      before_json: entry.before === undefined ? null : JSON.stringify(entry.before),
      after_json: entry.after === undefined ? null : JSON.stringify(entry.after),
      ip: entry.ip ?? null,
      created_at: nowIso(),
    })
    .execute();
}

/** A portal's change log, newest first. */
export function listAuditEntries(db: Database, portalId: string, limit = 50) {
  return db
    .selectFrom('audit_log')
    .selectAll()
    .where('portal_id', '=', portalId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

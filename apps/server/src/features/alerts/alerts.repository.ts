import crypto from 'node:crypto';
import type { AlertKind, NotificationKind } from '@latchkey/shared';
import type { Insertable } from 'kysely';
import type { Database } from '../../db/database';
import type { AlertRulesTable, NotificationsTable } from '../../db/schema';

/**
 * The rules a new portal starts with: what every operator wants to hear about, mailed to the
 * admins. They can be changed or deleted like any other.
 */
const DEFAULT_ALERT_RULES = [
  { kind: 'low_battery', name: 'Low battery', minutes: null },
  { kind: 'tamper', name: 'Tamper alarm', minutes: null },
  { kind: 'offline', name: 'Offline for 30 minutes', minutes: 30 },
] as const;

export async function insertDefaultAlertRules(db: Database, portalId: string, now: string): Promise<void> {
  await db
    .insertInto('alert_rules')
    .values(
      DEFAULT_ALERT_RULES.map((rule) => ({
        id: crypto.randomUUID(),
        portal_id: portalId,
        kind: rule.kind,
        name: rule.name,
        enabled: 1,
        email: 1,
        device_ids_json: '[]',
        minutes: rule.minutes,
        count: null,
        user_id: null,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

export function listRules(db: Database, portalId: string) {
  return db
    .selectFrom('alert_rules')
    .selectAll()
    .where('portal_id', '=', portalId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findRule(db: Database, portalId: string, id: string) {
  return db
    .selectFrom('alert_rules')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The enabled rules of one kind; without a portal, every portal's (the offline sweep). */
export function listEnabledRules(db: Database, kind: AlertKind, portalId?: string) {
  let query = db.selectFrom('alert_rules').selectAll().where('kind', '=', kind).where('enabled', '=', 1);
  if (portalId) query = query.where('portal_id', '=', portalId);
  return query.execute();
}

/** A portal's enabled rules of these kinds (the rules a batch of lock events may concern). */
export function listEnabledRulesOfKinds(db: Database, portalId: string, kinds: AlertKind[]) {
  return db
    .selectFrom('alert_rules')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('enabled', '=', 1)
    .where('kind', 'in', kinds)
    .execute();
}

export async function insertRule(db: Database, row: Insertable<AlertRulesTable>): Promise<void> {
  await db.insertInto('alert_rules').values(row).execute();
}

export async function updateRule(
  db: Database,
  portalId: string,
  id: string,
  patch: Omit<Insertable<AlertRulesTable>, 'id' | 'portal_id' | 'created_at'>,
): Promise<void> {
  await db
    .updateTable('alert_rules')
    .set(patch)
    .where('portal_id', '=', portalId)
    .where('id', '=', id)
    .execute();
}

export async function deleteRule(db: Database, portalId: string, id: string): Promise<void> {
  await db.deleteFrom('alert_rules').where('portal_id', '=', portalId).where('id', '=', id).execute();
}

/** Stores a notification unless one with its once_key exists; answers whether it was new. */
export async function insertNotificationOnce(
  db: Database,
  row: Insertable<NotificationsTable>,
): Promise<boolean> {
  const result = await db
    .insertInto('notifications')
    .values(row)
    .onConflict((oc) => oc.columns(['portal_id', 'once_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function listNotifications(
  db: Database,
  portalId: string,
  query: { skip: number; limit: number; descending: boolean; kind?: string },
) {
  let base = db.selectFrom('notifications as n').where('n.portal_id', '=', portalId);
  if (query.kind) base = base.where('n.kind', '=', query.kind as NotificationKind);
  const direction = query.descending ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    base
      .leftJoin('devices as d', (join) =>
        join.onRef('d.id', '=', 'n.device_id').onRef('d.portal_id', '=', 'n.portal_id'),
      )
      .selectAll('n')
      .select('d.name as device_name')
      .orderBy('n.created_at', direction)
      .orderBy('n.id', direction)
      .limit(query.limit)
      .offset(query.skip)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function countNotificationsSince(db: Database, portalId: string, since: string | null) {
  let query = db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('portal_id', '=', portalId);
  if (since) query = query.where('created_at', '>', since);
  return (await query.executeTakeFirstOrThrow()).total;
}

export async function findReadAt(db: Database, portalId: string, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('notification_reads')
    .select('read_at')
    .where('portal_id', '=', portalId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? new Date(row.read_at).toISOString() : null;
}

export async function saveReadAt(
  db: Database,
  portalId: string,
  userId: string,
  readAt: string,
): Promise<void> {
  await db
    .insertInto('notification_reads')
    .values({ portal_id: portalId, user_id: userId, read_at: readAt })
    .onConflict((oc) => oc.columns(['portal_id', 'user_id']).doUpdateSet({ read_at: readAt }))
    .execute();
}

/** Refusals at one lock since an instant (the denied-attempts rule). */
export async function countDenialsSince(db: Database, portalId: string, deviceId: string, since: string) {
  const row = await db
    .selectFrom('device_events')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .where('type', '=', 'denied')
    .where('occurred_at', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * The portal's locks offline and silent since before `cutoff` (the offline rule's sweep). With
 * `window`, only those that became due since the last sweep: silent since `seenFrom` or later, or
 * marked offline (changed) since `changedFrom`, as the heartbeat sweep may mark a lock after it
 * crossed the rule's length.
 */
export function listLocksOfflineSince(
  db: Database,
  portalId: string,
  cutoff: string,
  window: { seenFrom: string; changedFrom: string } | null = null,
) {
  let query = db
    .selectFrom('devices')
    .select(['id', 'name', 'last_seen_at', 'time_zone'])
    .where('portal_id', '=', portalId)
    .where('deleted_at', 'is', null)
    .where('online', '=', 0)
    .where('last_seen_at', 'is not', null)
    .where('last_seen_at', '<', cutoff);
  if (window) {
    query = query.where((eb) =>
      eb.or([eb('last_seen_at', '>=', window.seenFrom), eb('updated_at', '>=', window.changedFrom)]),
    );
  }
  return query.execute();
}

/** Where alert mail goes: the portal's active admins. */
export async function listAdminEmails(db: Database, portalId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.email')
    .where('m.portal_id', '=', portalId)
    .where('m.role', '=', 'admin')
    .where('m.status', '=', 'active')
    .execute();
  return rows.map((row) => row.email);
}

/** The credentials a lock refused, with their holder's name when a person holds them (inbox text). */
export function listCredentialNames(db: Database, portalId: string, credentialIds: string[]) {
  if (credentialIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('credentials as c')
    .leftJoin('users as u', 'u.id', 'c.user_id')
    .select(['c.id', 'c.name', 'c.kind', 'u.first_name', 'u.last_name', 'u.email'])
    .where('c.portal_id', '=', portalId)
    .where('c.id', 'in', credentialIds)
    .execute();
}

/** A remote command's action (unlock or lock), in its portal. */
export async function findCommandAction(db: Database, portalId: string, commandId: string) {
  const row = await db
    .selectFrom('device_commands')
    .select('action')
    .where('portal_id', '=', portalId)
    .where('id', '=', commandId)
    .executeTakeFirst();
  return row?.action ?? null;
}

/**
 * Remote commands that expired unanswered within (from, until]: the lock never said it carried them
 * out (every portal's: the alerts' sweep). At most `limit`, oldest first.
 */
export function listCommandsExpiredUnanswered(db: Database, from: string, until: string, limit = 500) {
  return db
    .selectFrom('device_commands as c')
    .innerJoin('devices as d', (join) =>
      join.onRef('d.id', '=', 'c.device_id').onRef('d.portal_id', '=', 'c.portal_id'),
    )
    .select(['c.id', 'c.portal_id', 'c.device_id', 'c.action', 'd.name as device_name'])
    .where('c.status', '=', 'pending')
    .where('c.expires_at', '>', from)
    .where('c.expires_at', '<=', until)
    .where('d.deleted_at', 'is', null)
    .orderBy('c.expires_at')
    .limit(limit)
    .execute();
}

import crypto from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Database } from '../../db/database';
import type {
  WebhookAttemptRow,
  WebhookAttemptsTable,
  WebhookDeliveryRow,
  WebhookEndpointRow,
  WebhookEndpointsTable,
} from '../../db/schema';
import { toCount } from '../../db/mappers';

// Queries of features/webhooks; portal-owned rows are always asked for by portal id.

export function listEndpoints(db: Database, portalId: string): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('portal_id', '=', portalId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findEndpoint(
  db: Database,
  portalId: string,
  endpointId: string,
): Promise<WebhookEndpointRow | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('id', '=', endpointId)
    .executeTakeFirst();
}

/** The endpoint a claimed delivery goes to (the worker: the delivery row names its portal). */
export function endpointOfDelivery(db: Database, delivery: WebhookDeliveryRow) {
  return findEndpoint(db, delivery.portal_id, delivery.endpoint_id);
}

export function enabledEndpoints(db: Database, portalId: string): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('enabled', '=', 1)
    .execute();
}

export async function portalHasEnabledEndpoint(db: Database, portalId: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('portal_id', '=', portalId)
    .where('enabled', '=', 1)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertEndpoint(db: Database, row: Insertable<WebhookEndpointsTable>) {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function updateEndpoint(
  db: Database,
  portalId: string,
  endpointId: string,
  set: Partial<Insertable<WebhookEndpointsTable>>,
) {
  await db
    .updateTable('webhook_endpoints')
    .set(set)
    .where('portal_id', '=', portalId)
    .where('id', '=', endpointId)
    .execute();
}

export async function deleteEndpoint(db: Database, portalId: string, endpointId: string) {
  await db
    .deleteFrom('webhook_attempts')
    .where('portal_id', '=', portalId)
    .where('endpoint_id', '=', endpointId)
    .execute();
  await db
    .deleteFrom('webhook_deliveries')
    .where('portal_id', '=', portalId)
    .where('endpoint_id', '=', endpointId)
    .execute();
  await db
    .deleteFrom('webhook_endpoints')
    .where('portal_id', '=', portalId)
    .where('id', '=', endpointId)
    .execute();
}

export interface NewDelivery {
  portalId: string;
  endpointId: string;
  messageId: string;
  eventType: string;
  payload: string;
  now: string;
}

export async function insertDeliveries(db: Database, deliveries: readonly NewDelivery[]): Promise<string[]> {
  if (deliveries.length === 0) return [];
  const rows = deliveries.map((d) => ({
    id: crypto.randomUUID(),
    portal_id: d.portalId,
    endpoint_id: d.endpointId,
    message_id: d.messageId,
    event_type: d.eventType,
    payload: d.payload,
    status: 'pending' as const,
    attempt_count: 0,
    next_attempt_at: d.now,
    manual: 0,
    created_at: d.now,
    updated_at: d.now,
  }));
  // A few hundred rows per statement keep under SQLite's variable limit.
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto('webhook_deliveries')
      .values(rows.slice(i, i + 200))
      .execute();
  }
  return rows.map((row) => row.id);
}

export function findDelivery(db: Database, portalId: string, endpointId: string, deliveryId: string) {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('endpoint_id', '=', endpointId)
    .where('id', '=', deliveryId)
    .executeTakeFirst();
}

export async function pageOfDeliveries(
  db: Database,
  portalId: string,
  endpointId: string,
  query: { skip: number; limit: number; status?: string },
): Promise<{ rows: WebhookDeliveryRow[]; total: number }> {
  let base = db
    .selectFrom('webhook_deliveries')
    .where('portal_id', '=', portalId)
    .where('endpoint_id', '=', endpointId);
  if (query.status) base = base.where('status', '=', query.status as WebhookDeliveryRow['status']);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(query.skip)
      .limit(query.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: toCount(count.count as never) };
}

export async function attemptsOf(
  db: Database,
  portalId: string,
  deliveryIds: readonly string[],
): Promise<Map<string, WebhookAttemptRow[]>> {
  const byDelivery = new Map<string, WebhookAttemptRow[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const list = byDelivery.get(row.delivery_id);
    if (list) list.push(row);
    else byDelivery.set(row.delivery_id, [row]);
  }
  return byDelivery;
}

/** The last attempt of each of these endpoints (the list's status). */
export async function lastAttempts(
  db: Database,
  portalId: string,
  endpointIds: readonly string[],
): Promise<Map<string, WebhookAttemptRow>> {
  const last = new Map<string, WebhookAttemptRow>();
  for (const endpointId of endpointIds) {
    const row = await db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('portal_id', '=', portalId)
      .where('endpoint_id', '=', endpointId)
      .orderBy('attempted_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (row) last.set(endpointId, row);
  }
  return last;
}

export async function insertAttempt(db: Database, row: Insertable<WebhookAttemptsTable>) {
  await db.insertInto('webhook_attempts').values(row).execute();
}

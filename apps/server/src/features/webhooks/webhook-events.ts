import type { WebhookEventTypeName } from '@latchkey/shared';
import type { Database } from '../../db/database';
import {
  enabledEndpoints,
  insertDeliveries,
  portalHasEnabledEndpoint,
  type NewDelivery,
} from './webhooks.repository';
import { newMessageId } from './webhook-signature';

// Turning what happened into deliveries (docs/decisions.md "Webhooks"): inside the announcer's
// transaction, one delivery row per matching enabled endpoint, each event with its own message id.
// Lock events arrive by the thousand per transaction: which portals have an enabled endpoint is
// cached (per portal, for a few seconds, dropped at once by this server's own changes), so a portal
// without endpoints costs one map look-up per event, not a query.

/** How long "this portal has (no) enabled endpoint" is believed; another server's change shows after it. */
export const ENDPOINT_CACHE_MS = 5_000;

const hasEndpoints = new Map<string, { has: boolean; until: number }>();

/** Forgets what is cached of a portal's endpoints (a create, update or delete on this server). */
export function forgetPortalEndpoints(portalId: string): void {
  hasEndpoints.delete(portalId);
}

/** Whether the portal has an enabled endpoint (cached). */
export async function portalHasEndpoints(
  db: Database,
  portalId: string,
  nowMs = Date.now(),
): Promise<boolean> {
  const cached = hasEndpoints.get(portalId);
  if (cached && cached.until > nowMs) return cached.has;
  const has = await portalHasEnabledEndpoint(db, portalId);
  if (hasEndpoints.size > 100_000) hasEndpoints.clear();
  hasEndpoints.set(portalId, { has, until: nowMs + ENDPOINT_CACHE_MS });
  return has;
}

/** One event to announce: its type and its `data`. */
export interface WebhookEvent {
  type: WebhookEventTypeName;
  data: Record<string, unknown>;
}

/** The body every attempt of a message sends, byte for byte. */
export function webhookBody(event: WebhookEvent, timestamp: string): string {
  return JSON.stringify({ type: event.type, timestamp, data: event.data });
}

/**
 * Writes the deliveries of a portal's events (call inside the announcer's transaction): nothing
 * when the portal has no enabled endpoint whose filter takes them. Answers how many were written.
 */
export async function announceWebhookEvents(
  db: Database,
  portalId: string,
  events: readonly WebhookEvent[],
  now = new Date(),
): Promise<number> {
  if (events.length === 0 || !(await portalHasEndpoints(db, portalId, now.getTime()))) return 0;
  const endpoints = await enabledEndpoints(db, portalId);
  const at = now.toISOString();
  const rows: NewDelivery[] = [];
  for (const event of events) {
    const messageId = newMessageId();
    const payload = webhookBody(event, at);
    for (const endpoint of endpoints) {
      const types = endpoint.event_types ? (JSON.parse(endpoint.event_types) as string[]) : null;
      if (types && !types.includes(event.type)) continue;
      rows.push({ portalId, endpointId: endpoint.id, messageId, eventType: event.type, payload, now: at });
    }
  }
  await insertDeliveries(db, rows);
  if (rows.length > 0) wakeWorkers();
  return rows.length;
}

/** The workers of this process, woken shortly after deliveries were written (their transaction commits first). */
const wakers = new Set<() => void>();

export function onDeliveriesWritten(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

function wakeWorkers() {
  for (const wake of wakers) wake();
}

import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '@latchkey/shared';
import { toIso } from '../../db/mappers';
import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from '../../db/schema';

export function presentEndpoint(
  row: WebhookEndpointRow,
  last: WebhookAttemptRow | undefined,
  now = new Date(),
): WebhookEndpoint {
  const until = row.previous_secret_until ? toIso(row.previous_secret_until) : null;
  return {
    _id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.event_types ? (JSON.parse(row.event_types) as string[]) : null,
    enabled: Number(row.enabled) === 1,
    disabledReason: row.disabled_reason,
    previousSecretUntil: row.previous_secret && until && new Date(until) > now ? until : null,
    lastAttempt: last
      ? { at: toIso(last.attempted_at), ok: Number(last.ok) === 1, statusCode: last.status_code }
      : null,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export function presentAttempt(row: WebhookAttemptRow): WebhookAttempt {
  return {
    _id: row.id,
    at: toIso(row.attempted_at),
    statusCode: row.status_code,
    durationMs: row.duration_ms,
    response: row.response,
    error: row.error,
    manual: Number(row.manual) === 1,
  };
}

export function presentDelivery(row: WebhookDeliveryRow, attempts: WebhookAttemptRow[]): WebhookDelivery {
  return {
    _id: row.id,
    messageId: row.message_id,
    eventType: row.event_type,
    status: row.status,
    payload: JSON.parse(row.payload) as unknown,
    nextAttemptAt: row.status === 'pending' && row.next_attempt_at ? toIso(row.next_attempt_at) : null,
    createdAt: toIso(row.created_at),
    attempts: attempts.map(presentAttempt),
  };
}

import crypto from 'node:crypto';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_PREVIOUS_SECRET_MS,
  webhookDeliveryQuerySchema,
  webhookEndpointInputSchema,
  webhookEndpointPatchSchema,
  type WebhookDelivery,
  type WebhookDeliveryPage,
  type WebhookDeliveryQuery,
  type WebhookEndpoint,
  type WebhookEndpointInput,
  type WebhookEndpointPatch,
  type WebhookSecret,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import type { WebhookEndpointRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import {
  attemptsOf,
  deleteEndpoint,
  findDelivery,
  findEndpoint,
  insertDeliveries,
  insertEndpoint,
  lastAttempts,
  listEndpoints,
  pageOfDeliveries,
  updateEndpoint,
} from './webhooks.repository';
import { presentDelivery, presentEndpoint } from './webhooks.presenter';
import { newMessageId, newWebhookSecret } from './webhook-signature';
import { checkWebhookUrl, WebhookFetchError } from './webhook-fetch';
import { forgetPortalEndpoints, webhookBody } from './webhook-events';

// Endpoints, their secrets and their delivery logs (routes: webhooks.routes.ts). Every change is
// audited; secrets never enter the audit log.

/** What the webhooks service needs of the configuration. */
export interface WebhookSettings {
  allowPrivateAddresses: boolean;
}

/** At most this many endpoints per portal. */
export const MAX_ENDPOINTS_PER_PORTAL = 20;

function assertUsableUrl(url: string, settings: WebhookSettings) {
  try {
    checkWebhookUrl(url, settings.allowPrivateAddresses);
  } catch (error) {
    if (error instanceof WebhookFetchError)
      throw AppError.badRequest(error.message, [{ path: 'url', message: error.message }]);
    throw error;
  }
}

async function endpointOr404(
  db: Database,
  portalId: string,
  endpointId: string,
): Promise<WebhookEndpointRow> {
  const row = await findEndpoint(db, portalId, endpointId);
  if (!row) throw AppError.notFound('Webhook endpoint');
  return row;
}

async function present(db: Database, portalId: string, row: WebhookEndpointRow): Promise<WebhookEndpoint> {
  const last = await lastAttempts(db, portalId, [row.id]);
  return presentEndpoint(row, last.get(row.id));
}

const auditView = (row: Pick<WebhookEndpointRow, 'url' | 'description' | 'event_types' | 'enabled'>) => ({
  url: row.url,
  description: row.description,
  eventTypes: row.event_types ? (JSON.parse(row.event_types) as string[]) : 'all',
  enabled: Number(row.enabled) === 1,
});

/** GET portal/webhooks. */
export async function getEndpoints(db: Database, portalId: string): Promise<{ items: WebhookEndpoint[] }> {
  const rows = await listEndpoints(db, portalId);
  const last = await lastAttempts(
    db,
    portalId,
    rows.map((row) => row.id),
  );
  return { items: rows.map((row) => presentEndpoint(row, last.get(row.id))) };
}

/** GET portal/webhooks/{id}. */
export async function getEndpoint(
  db: Database,
  portalId: string,
  endpointId: string,
): Promise<WebhookEndpoint> {
  return present(db, portalId, await endpointOr404(db, portalId, endpointId));
}

/** POST portal/webhooks. */
export async function createEndpoint(
  db: Database,
  context: ChangeContext,
  body: WebhookEndpointInput,
  settings: WebhookSettings,
): Promise<WebhookEndpoint> {
  const input = webhookEndpointInputSchema.parse(body);
  assertUsableUrl(input.url, settings);
  const existing = await listEndpoints(db, context.portalId);
  if (existing.length >= MAX_ENDPOINTS_PER_PORTAL)
    throw AppError.conflict(`A portal has at most ${MAX_ENDPOINTS_PER_PORTAL} webhook endpoints`);
  const now = new Date().toISOString();
  const row = {
    id: crypto.randomUUID(),
    portal_id: context.portalId,
    url: input.url,
    description: input.description,
    event_types: input.eventTypes ? JSON.stringify([...new Set(input.eventTypes)]) : null,
    enabled: input.enabled ? 1 : 0,
    disabled_reason: null,
    secret: newWebhookSecret(),
    previous_secret: null,
    previous_secret_until: null,
    created_by: context.actorUserId,
    created_at: now,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    await insertEndpoint(trx, row);
    await recordChange(trx, context, {
      action: 'webhook.endpoint.create',
      entityType: 'webhook_endpoint',
      entityId: row.id,
      after: auditView(row),
    });
  });
  forgetPortalEndpoints(context.portalId);
  return presentEndpoint(row, undefined);
}

/** PATCH portal/webhooks/{id}: enabling again clears the "disabled for failing" mark. */
export async function changeEndpoint(
  db: Database,
  context: ChangeContext,
  endpointId: string,
  body: WebhookEndpointPatch,
  settings: WebhookSettings,
): Promise<WebhookEndpoint> {
  const patch = webhookEndpointPatchSchema.parse(body);
  if (patch.url !== undefined) assertUsableUrl(patch.url, settings);
  const before = await endpointOr404(db, context.portalId, endpointId);
  const set = {
    ...(patch.url !== undefined && { url: patch.url }),
    ...(patch.description !== undefined && { description: patch.description }),
    ...(patch.eventTypes !== undefined && {
      event_types: patch.eventTypes ? JSON.stringify([...new Set(patch.eventTypes)]) : null,
    }),
    ...(patch.enabled !== undefined && { enabled: patch.enabled ? 1 : 0 }),
    ...(patch.enabled === true && { disabled_reason: null }),
    updated_at: new Date().toISOString(),
  };
  const after = { ...before, ...set };
  await db.transaction().execute(async (trx) => {
    await updateEndpoint(trx, context.portalId, endpointId, set);
    await recordChange(trx, context, {
      action: 'webhook.endpoint.update',
      entityType: 'webhook_endpoint',
      entityId: endpointId,
      before: auditView(before),
      after: auditView(after),
    });
  });
  forgetPortalEndpoints(context.portalId);
  return getEndpoint(db, context.portalId, endpointId);
}

/** DELETE portal/webhooks/{id}: the endpoint and its log. */
export async function removeEndpoint(
  db: Database,
  context: ChangeContext,
  endpointId: string,
): Promise<void> {
  const before = await endpointOr404(db, context.portalId, endpointId);
  await db.transaction().execute(async (trx) => {
    await deleteEndpoint(trx, context.portalId, endpointId);
    await recordChange(trx, context, {
      action: 'webhook.endpoint.delete',
      entityType: 'webhook_endpoint',
      entityId: endpointId,
      before: auditView(before),
    });
  });
  forgetPortalEndpoints(context.portalId);
}

/** GET portal/webhooks/{id}/secret: shown to admins on demand (the reveal is audited). */
export async function revealSecret(
  db: Database,
  context: ChangeContext,
  endpointId: string,
): Promise<WebhookSecret> {
  const row = await endpointOr404(db, context.portalId, endpointId);
  await recordChange(db, context, {
    action: 'webhook.secret.reveal',
    entityType: 'webhook_endpoint',
    entityId: endpointId,
  });
  const endpoint = presentEndpoint(row, undefined);
  return { secret: row.secret, previousSecretUntil: endpoint.previousSecretUntil };
}

/**
 * POST portal/webhooks/{id}/secret/rotate: a new secret signs from now on; the one it replaces
 * still signs too (a second signature) for WEBHOOK_PREVIOUS_SECRET_MS, so receivers can switch.
 */
export async function rotateSecret(
  db: Database,
  context: ChangeContext,
  endpointId: string,
  now = new Date(),
): Promise<WebhookSecret> {
  const row = await endpointOr404(db, context.portalId, endpointId);
  const secret = newWebhookSecret();
  const until = new Date(now.getTime() + WEBHOOK_PREVIOUS_SECRET_MS).toISOString();
  await db.transaction().execute(async (trx) => {
    await updateEndpoint(trx, context.portalId, endpointId, {
      secret,
      previous_secret: row.secret,
      previous_secret_until: until,
      updated_at: now.toISOString(),
    });
    await recordChange(trx, context, {
      action: 'webhook.secret.rotate',
      entityType: 'webhook_endpoint',
      entityId: endpointId,
      after: { previousSecretValidUntil: until },
    });
  });
  return { secret, previousSecretUntil: until };
}

/** GET portal/webhooks/{id}/deliveries: newest first, each with its attempts. */
export async function getDeliveries(
  db: Database,
  portalId: string,
  endpointId: string,
  rawQuery: WebhookDeliveryQuery,
): Promise<WebhookDeliveryPage> {
  const query = webhookDeliveryQuerySchema.parse(rawQuery);
  await endpointOr404(db, portalId, endpointId);
  const { rows, total } = await pageOfDeliveries(db, portalId, endpointId, query);
  const attempts = await attemptsOf(
    db,
    portalId,
    rows.map((row) => row.id),
  );
  return { items: rows.map((row) => presentDelivery(row, attempts.get(row.id) ?? [])), total };
}

async function deliveryNow(db: Database, portalId: string, endpointId: string, deliveryId: string) {
  const row = await findDelivery(db, portalId, endpointId, deliveryId);
  if (!row) throw AppError.notFound('Delivery');
  const attempts = await attemptsOf(db, portalId, [row.id]);
  return presentDelivery(row, attempts.get(row.id) ?? []);
}

/**
 * POST portal/webhooks/{id}/deliveries/{deliveryId}/replay: one more attempt of the same message
 * (same `webhook-id` and body; a fresh timestamp and signature), at once.
 */
export async function replayDelivery(
  db: Database,
  context: ChangeContext,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const endpoint = await endpointOr404(db, context.portalId, endpointId);
  if (Number(endpoint.enabled) !== 1) throw AppError.conflict('The endpoint is disabled: enable it first');
  const row = await findDelivery(db, context.portalId, endpointId, deliveryId);
  if (!row) throw AppError.notFound('Delivery');
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', manual: 1, next_attempt_at: now, updated_at: now })
      .where('id', '=', row.id)
      .where('portal_id', '=', context.portalId)
      .execute();
    await recordChange(trx, context, {
      action: 'webhook.delivery.replay',
      entityType: 'webhook_endpoint',
      entityId: endpointId,
      after: { messageId: row.message_id, eventType: row.event_type },
    });
  });
  return deliveryNow(db, context.portalId, endpointId, deliveryId);
}

/** POST portal/webhooks/{id}/test: a `webhook.test` event to this endpoint only. */
export async function sendTestEvent(
  db: Database,
  context: ChangeContext,
  endpointId: string,
): Promise<WebhookDelivery> {
  const endpoint = await endpointOr404(db, context.portalId, endpointId);
  if (Number(endpoint.enabled) !== 1) throw AppError.conflict('The endpoint is disabled: enable it first');
  const now = new Date();
  const example = WEBHOOK_EVENT_TYPES.find((type) => type.type === 'webhook.test')!.example;
  const [id] = await db.transaction().execute(async (trx) => {
    const ids = await insertDeliveries(trx, [
      {
        portalId: context.portalId,
        endpointId,
        messageId: newMessageId(),
        eventType: 'webhook.test',
        payload: webhookBody({ type: 'webhook.test', data: { ...example, endpointId } }, now.toISOString()),
        now: now.toISOString(),
      },
    ]);
    await recordChange(trx, context, {
      action: 'webhook.test',
      entityType: 'webhook_endpoint',
      entityId: endpointId,
    });
    return ids;
  });
  return deliveryNow(db, context.portalId, endpointId, id!);
}

import { z } from 'zod';
import { integerParam, lineText } from './safe-input';

// Outgoing webhooks in the Standard Webhooks format (issue 21, item 2; docs/decisions.md "Webhooks").
// A portal's admins register endpoints; every event the portal's locks, stays and payments raise is
// delivered to each enabled endpoint whose filter takes it, signed with the endpoint's secret.

/** One event type a webhook may carry: its name, what it means, and an example of its `data`. */
export interface WebhookEventType {
  type: string;
  description: string;
  example: Record<string, unknown>;
}

const LOCK = { _id: '6b0f3c1e-0d6a-4d38-9f8c-6f0c7a1b2c3d', name: 'Front door' };
/** A plan's renewal: its invoice, no checkout (a payment at checkout names the checkout instead). */
const PAYMENT = {
  kind: 'subscription',
  amountMinor: 4900,
  currency: 'eur',
  checkoutId: null,
  invoiceId: 'in_1Q2w3E',
};
const PERSON = { _id: '1f1c0b4e-7c55-4a1f-8f3b-2d1d5a0e9c11', name: 'Ada Lovelace' };

/** Every event a webhook endpoint may receive (the screen lists them, the filter names them). */
export const WEBHOOK_EVENT_TYPES = [
  {
    type: 'lock.event',
    description:
      'Something happened at a lock: unlocked, locked, access denied, tampering… with the credential used, its kind, and the person when known',
    example: {
      eventId: 'e-1042',
      lock: LOCK,
      event: 'unlock',
      credential: { _id: '0b7e4a52-1d2c-4c1b-9a4e-3f5d6c7b8a90', kind: 'code' },
      person: PERSON,
      reason: null,
      occurredAt: '2026-11-27T09:14:03.000Z',
    },
  },
  {
    type: 'credential.confirmed',
    description:
      'A lock confirmed it holds a credential (a code, card, fingerprint, key…): it works there now',
    example: {
      lock: LOCK,
      credential: { _id: '0b7e4a52-1d2c-4c1b-9a4e-3f5d6c7b8a90', kind: 'code' },
      person: { _id: PERSON._id },
      version: 12,
    },
  },
  {
    type: 'credential.rejected',
    description: "A lock refused a credential, with the lock's own reason (no room left, a duplicate code…)",
    example: {
      lock: LOCK,
      credential: { _id: '0b7e4a52-1d2c-4c1b-9a4e-3f5d6c7b8a90', kind: 'code' },
      person: { _id: PERSON._id },
      version: 12,
      reason: 'duplicate_code',
    },
  },
  {
    type: 'stay.access_ready',
    description: "A stay's access is confirmed on every lock of its listing: the guest can get in",
    example: {
      stay: {
        _id: '5a4e3f2d-1c0b-4a9f-8e7d-6c5b4a3f2e1d',
        listingId: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
      },
      locks: [LOCK],
    },
  },
  {
    type: 'lock.offline',
    description: 'A lock stopped answering (its connection ended or its heartbeats stopped)',
    example: { lock: LOCK, lastSeenAt: '2026-11-27T09:10:00.000Z' },
  },
  {
    type: 'lock.online',
    description: 'A lock is connected again',
    example: { lock: LOCK },
  },
  {
    type: 'lock.battery_low',
    description: "A lock's battery fell to the low level",
    example: { lock: LOCK, battery: 14 },
  },
  {
    type: 'stay.requested',
    description: 'A guest asked for a stay at one of the portal’s listings',
    example: {
      stay: {
        _id: '5a4e3f2d-1c0b-4a9f-8e7d-6c5b4a3f2e1d',
        listingId: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
        from: '2026-12-01',
        to: '2026-12-04',
        status: 'requested',
      },
    },
  },
  {
    type: 'stay.approved',
    description: 'A stay was approved: its guest gets access for its dates',
    example: {
      stay: {
        _id: '5a4e3f2d-1c0b-4a9f-8e7d-6c5b4a3f2e1d',
        listingId: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
        from: '2026-12-01',
        to: '2026-12-04',
        status: 'approved',
      },
    },
  },
  {
    type: 'stay.cancelled',
    description: 'A stay was cancelled or declined: its access is taken back',
    example: {
      stay: {
        _id: '5a4e3f2d-1c0b-4a9f-8e7d-6c5b4a3f2e1d',
        listingId: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
        from: '2026-12-01',
        to: '2026-12-04',
        status: 'cancelled',
      },
    },
  },
  {
    type: 'payment.succeeded',
    description:
      "A payment of the portal went through: a plan's invoice (invoiceId), or a prepaid period or an order paid at checkout (checkoutId)",
    example: { payment: PAYMENT },
  },
  {
    type: 'payment.failed',
    description: "A payment of the portal was declined: a plan's renewal, or a card at checkout",
    example: { payment: PAYMENT },
  },
  {
    type: 'bill.closed',
    description: "A month's bill was closed with its invoice number",
    example: {
      bill: {
        _id: '7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2918',
        year: 2026,
        month: 10,
        number: 'LK-2026-000042',
        totalMinor: 5831,
        currency: 'eur',
      },
    },
  },
  {
    type: 'webhook.test',
    description: 'Sent by "Send test event": nothing happened, the endpoint is being tried',
    example: { message: 'A test event from Latchkey' },
  },
] as const satisfies readonly WebhookEventType[];

export type WebhookEventTypeName = (typeof WEBHOOK_EVENT_TYPES)[number]['type'];
export const WEBHOOK_EVENT_TYPE_NAMES = WEBHOOK_EVENT_TYPES.map((e) => e.type) as [
  WebhookEventTypeName,
  ...WebhookEventTypeName[],
];
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPE_NAMES);

/**
 * When a delivery is tried again after a failed attempt (the Svix schedule): at once, 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h — a day and more than 3 hours in all; after the last it is failed.
 */
export const WEBHOOK_RETRY_SCHEDULE_MS = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
] as const;

/** The headers a receiver reads (the Standard Webhooks specification). */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

/** An endpoint failing this long (every delivery in the period failed) is disabled. */
export const WEBHOOK_DISABLE_AFTER_MS = 5 * 24 * 3600_000;
/** After a rotation, the previous secret still signs (a second signature) this long. */
export const WEBHOOK_PREVIOUS_SECRET_MS = 24 * 3600_000;
/** Attempts older than this are pruned from the log. */
export const WEBHOOK_LOG_DAYS = 30;

const webhookUrlSchema = lineText()
  .min(1, 'is required')
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
    } catch {
      return false;
    }
  }, 'must be an https:// address without a user name or password');

/** POST portal/webhooks (and, partly, PATCH portal/webhooks/{id}). */
export const webhookEndpointInputSchema = z.object({
  url: webhookUrlSchema,
  description: lineText().max(200).default(''),
  /** The event types delivered; null: every type (those added later too). */
  eventTypes: z
    .array(webhookEventTypeSchema)
    .min(1, 'pick at least one event')
    .max(50)
    .nullable()
    .default(null),
  enabled: z.boolean().default(true),
});
export type WebhookEndpointInput = z.input<typeof webhookEndpointInputSchema>;

export const webhookEndpointPatchSchema = z
  .object({
    url: webhookUrlSchema.optional(),
    description: lineText().max(200).optional(),
    eventTypes: z
      .array(webhookEventTypeSchema)
      .min(1, 'pick at least one event')
      .max(50)
      .nullable()
      .optional(),
    enabled: z.boolean().optional(),
  })
  .refine((patch) => Object.keys(patch).length > 0, 'change at least one field');
export type WebhookEndpointPatch = z.input<typeof webhookEndpointPatchSchema>;

export const webhookEndpointSchema = z.object({
  _id: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.string()).nullable(),
  enabled: z.boolean(),
  /** Why it was disabled by the server ('failing': every delivery failed for 5 days), or null. */
  disabledReason: z.string().nullable(),
  /** Until when the previous secret still signs, after a rotation; null when there is none. */
  previousSecretUntil: z.iso.datetime().nullable(),
  /** The last attempt's outcome, for the list. */
  lastAttempt: z
    .object({ at: z.iso.datetime(), ok: z.boolean(), statusCode: z.number().int().nullable() })
    .nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = z.object({ items: z.array(webhookEndpointSchema) });

/** GET portal/webhooks/{id}/secret and the rotation's answer. */
export const webhookSecretSchema = z.object({
  secret: z.string(),
  previousSecretUntil: z.iso.datetime().nullable(),
});
export type WebhookSecret = z.infer<typeof webhookSecretSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookAttemptSchema = z.object({
  _id: z.string(),
  at: z.iso.datetime(),
  /** The receiver's HTTP status; null when no answer came (timeout, refused, network error). */
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int(),
  /** The answer's first bytes (at most 1 KiB shown). */
  response: z.string().nullable(),
  error: z.string().nullable(),
  /** By hand (replay) or by the schedule. */
  manual: z.boolean(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliverySchema = z.object({
  _id: z.string(),
  /** The message id (`msg_…`): the `webhook-id` of every attempt, retries and replays alike. */
  messageId: z.string(),
  eventType: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  /** The body sent: `{ type, timestamp, data }`. */
  payload: z.unknown(),
  nextAttemptAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  attempts: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryQuerySchema = z.object({
  skip: integerParam({ min: 0, max: 100_000 }).default(0),
  limit: integerParam({ min: 1, max: 100 }).default(20),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
});
export type WebhookDeliveryQuery = z.input<typeof webhookDeliveryQuerySchema>;

export const webhookDeliveryPageSchema = z.object({
  items: z.array(webhookDeliverySchema),
  total: z.number().int(),
});
export type WebhookDeliveryPage = z.infer<typeof webhookDeliveryPageSchema>;

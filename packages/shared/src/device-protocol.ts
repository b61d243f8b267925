import { z } from 'zod';
import { ACCESS_DENIAL_REASONS, credentialKindSchema, credentialSetSchema } from './access/access.schemas';
import { deviceEventTypeSchema, eventMethodSchema } from './events.schemas';
import { hasNoControlCharacters, instantInput, isWellFormedText } from './safe-input';

// Device protocol v1 (DESIGN §4, docs/device-protocol.md): what a lock and the server say to each
// other over MQTT. Every payload is JSON; both sides validate it with these schemas.

export const DEVICE_PROTOCOL_VERSION = 1;
export const DEVICE_TOPIC_ROOT = 'lk/v1';

/** The most events one `events` message may carry. */
export const MAX_EVENTS_PER_MESSAGE = 500;
/**
 * The largest MQTT packet a lock may send (1 MiB). The largest legitimate one is a batch of
 * MAX_EVENTS_PER_MESSAGE events with every field at its longest: about 181 KB as plain JSON, 989 KB
 * with every letter and digit \u-escaped (docs/device-protocol.md §1).
 */
export const DEVICE_MAX_PACKET_BYTES = 1024 * 1024;
/** The largest CONNECT a lock may send: its id, secret and last will need a few hundred bytes. */
export const DEVICE_MAX_CONNECT_BYTES = 4096;

/** The topics under a lock's prefix, by who publishes them. */
export const LOCK_TOPICS = ['status', 'events', 'credentials/ack', 'commands/ack'] as const;
export const SERVER_TOPICS = ['credentials', 'events/ack', 'commands'] as const;
export type LockTopic = (typeof LOCK_TOPICS)[number];
export type ServerTopic = (typeof SERVER_TOPICS)[number];
export type DeviceTopic = LockTopic | ServerTopic;

/** `lk/v1/{deviceId}/{topic}`. */
export function deviceTopic(deviceId: string, topic: DeviceTopic): string {
  return `${DEVICE_TOPIC_ROOT}/${deviceId}/${topic}`;
}

/** The lock and topic of a device topic, or null for anything else. */
export function parseDeviceTopic(topic: string): { deviceId: string; topic: DeviceTopic } | null {
  const prefix = `${DEVICE_TOPIC_ROOT}/`;
  if (!topic.startsWith(prefix)) return null;
  const rest = topic.slice(prefix.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return null;
  const name = rest.slice(slash + 1);
  const known = [...LOCK_TOPICS, ...SERVER_TOPICS] as readonly string[];
  return known.includes(name) ? { deviceId: rest.slice(0, slash), topic: name as DeviceTopic } : null;
}

/**
 * An instant a lock sends: ISO-8601 with an offset, at most 40 characters, within the years
 * 1900–9999 (PostgreSQL knows no year 0000; the shared input rule).
 */
const instant = instantInput({ offset: true, message: 'must be an ISO date-time' }).max(40);

/**
 * An id or label a lock sends, stored and sent back exactly as it came (so not trimmed): no control
 * characters (PostgreSQL refuses NUL) and no lone surrogates, so both databases keep it the same.
 */
function protocolText(max: number) {
  return z
    .string()
    .min(1)
    .max(max)
    .refine((value) => hasNoControlCharacters(value), 'must not contain control characters')
    .refine(isWellFormedText, 'must be valid Unicode text');
}

export const LOCK_STATES = ['locked', 'unlocked', 'jammed', 'unknown'] as const;
export const lockStateSchema = z.enum(LOCK_STATES);
export type LockState = z.infer<typeof lockStateSchema>;

/**
 * What a lock says it can hold and take, in its status (optional: a lock that does not say is taken
 * to be its model). A Z-Wave lock behind the bridge reports its node's own user-code slots, which
 * may be far fewer than its model's figure; the portal counts codes against them.
 */
export const lockCapabilitiesSchema = z.object({
  /** How many codes the lock's keypad memory holds (a Z-Wave node's user-code slots). */
  codeSlots: z.number().int().min(0).max(100_000),
  /** The lengths of code its keypad takes; null without a keypad. */
  codeLength: z
    .object({ min: z.number().int().min(1).max(32), max: z.number().int().min(1).max(32) })
    .refine((length) => length.min <= length.max, 'min must not be above max')
    .nullable(),
  /** The credential kinds it applies (others in its set are answered `unsupported_kind`). */
  kinds: z.array(credentialKindSchema).max(16),
});
export type LockCapabilities = z.infer<typeof lockCapabilitiesSchema>;

/**
 * `status` (lock → server, QoS 1, retained). The lock publishes it on connect and on every change;
 * its last will is `{ "online": false }` (retained), which the broker publishes when it vanishes.
 */
export const deviceStatusSchema = z.union([
  z.object({
    online: z.literal(true),
    battery: z.number().int().min(0).max(100),
    lockState: lockStateSchema,
    firmware: protocolText(64),
    /** The version of the credential set the lock applied last; 0 before the first. */
    credentialsVersion: z.number().int().min(0),
    /** What it holds and takes (device protocol v1, optional: added for bridged locks). */
    capabilities: lockCapabilitiesSchema.optional(),
    ts: instant,
  }),
  z.object({ online: z.literal(false), ts: instant.optional() }),
]);
export type DeviceStatus = z.infer<typeof deviceStatusSchema>;

/**
 * `events` (lock → server, QoS 1). The lock keeps each event until `events/ack` names its id and
 * resends it after a reconnect; the server stores one copy per (lock, eventId).
 */
export const lockEventSchema = z.object({
  /** Made by the lock, unique on that lock (a UUID or a counter with a boot id). */
  eventId: protocolText(64),
  ts: instant,
  type: deviceEventTypeSchema,
  method: eventMethodSchema.nullable().default(null),
  credentialId: protocolText(64).nullable().default(null),
  reason: z.enum(ACCESS_DENIAL_REASONS).nullable().default(null),
  /** For an unlock/lock carried out on a portal command: its commandId, so the portal names who sent it. */
  commandId: protocolText(64).nullable().default(null),
});
export type LockEvent = z.infer<typeof lockEventSchema>;

/** `events` carries one event or a batch (a lock emptying its buffer after being offline). */
export const lockEventsMessageSchema = z.union([
  lockEventSchema,
  z.array(lockEventSchema).min(1).max(MAX_EVENTS_PER_MESSAGE),
]);

/** `events/ack` (server → lock, QoS 1): the ids now stored; the lock drops them from its buffer. */
export const eventsAckSchema = z.object({ eventIds: z.array(z.string().min(1)).min(1) });
export type EventsAck = z.infer<typeof eventsAckSchema>;

/** `credentials` (server → lock, QoS 1, retained): the whole set the lock decides with, versioned. */
export const credentialsMessageSchema = credentialSetSchema;

/** Why a lock may refuse an entry of a credential set. */
export const CREDENTIAL_REJECTIONS = ['unsupported_kind', 'invalid_secret', 'storage_full'] as const;
export type CredentialRejection = (typeof CREDENTIAL_REJECTIONS)[number];

/** `credentials/ack` (lock → server, QoS 1): the version applied and the entries it could not take. */
export const credentialsAckSchema = z.object({
  version: z.number().int().min(0),
  rejected: z
    .array(
      z.object({
        credentialId: protocolText(64),
        reason: z.enum(CREDENTIAL_REJECTIONS),
      }),
    )
    .default([]),
});
export type CredentialsAck = z.infer<typeof credentialsAckSchema>;

/** `commands` (server → lock, QoS 1): a remote action the lock must not carry out after expiresAt. */
export const deviceCommandSchema = z.object({
  commandId: z.string().min(1).max(64),
  action: z.enum(['unlock', 'lock']),
  expiresAt: instant,
  /** The person on whose behalf the portal sends it, for the lock's own event. */
  userId: z.string().min(1).nullable().default(null),
});
export type DeviceCommand = z.infer<typeof deviceCommandSchema>;

export const COMMAND_ERRORS = ['expired', 'jammed', 'busy', 'unsupported'] as const;
export type CommandError = (typeof COMMAND_ERRORS)[number];

/** `commands/ack` (lock → server, QoS 1). */
export const commandAckSchema = z.object({
  commandId: protocolText(64),
  ok: z.boolean(),
  error: z.enum(COMMAND_ERRORS).optional(),
});
export type CommandAck = z.infer<typeof commandAckSchema>;

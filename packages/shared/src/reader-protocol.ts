import { z } from 'zod';
import { DEVICE_TOPIC_ROOT } from './device-protocol';
import { hasNoControlCharacters, instantInput, isWellFormedText } from './safe-input';

// Enrollment readers over device protocol v1 (docs/device-protocol.md §7): a desk reader connects to
// the same broker with the same rules as a lock (its reader id as client id and username, its secret
// as password, only its own topics), under `lk/v1/readers/{readerId}/…`.

/** What a reader can read: RFID cards, fingerprints, or both. */
export const READER_KINDS = ['rfid', 'fingerprint', 'both'] as const;
export const readerKindSchema = z.enum(READER_KINDS);
export type ReaderKind = z.infer<typeof readerKindSchema>;

/** What one enrollment asks the reader for. */
export const ENROLLMENT_KINDS = ['rfid', 'fingerprint'] as const;
export const enrollmentKindSchema = z.enum(ENROLLMENT_KINDS);
export type EnrollmentKind = z.infer<typeof enrollmentKindSchema>;

/** Whether a reader of `kind` can take an enrollment of `wanted`. */
export function readerReads(kind: ReaderKind, wanted: EnrollmentKind): boolean {
  return kind === 'both' || kind === wanted;
}

/** How long a reader waits for a card or a finger: 60 s. */
export const ENROLLMENT_SECONDS = 60;

export const READER_TOPIC_ROOT = `${DEVICE_TOPIC_ROOT}/readers`;
/** The topics under a reader's prefix, by who publishes them. */
export const READER_TOPICS = ['status', 'enroll/result'] as const;
export const READER_SERVER_TOPICS = ['enroll', 'enroll/cancel'] as const;
export type ReaderTopic = (typeof READER_TOPICS)[number];
export type ReaderServerTopic = (typeof READER_SERVER_TOPICS)[number];

/** `lk/v1/readers/{readerId}/{topic}`. */
export function readerTopic(readerId: string, topic: ReaderTopic | ReaderServerTopic): string {
  return `${READER_TOPIC_ROOT}/${readerId}/${topic}`;
}

/** The reader and topic of a reader topic, or null for anything else (a lock's topics included). */
export function parseReaderTopic(
  topic: string,
): { readerId: string; topic: ReaderTopic | ReaderServerTopic } | null {
  const prefix = `${READER_TOPIC_ROOT}/`;
  if (!topic.startsWith(prefix)) return null;
  const rest = topic.slice(prefix.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return null;
  const name = rest.slice(slash + 1);
  const known = [...READER_TOPICS, ...READER_SERVER_TOPICS] as readonly string[];
  return known.includes(name)
    ? { readerId: rest.slice(0, slash), topic: name as ReaderTopic | ReaderServerTopic }
    : null;
}

const instant = instantInput({ offset: true, message: 'must be an ISO date-time' }).max(40);

function protocolText(max: number) {
  return z
    .string()
    .min(1)
    .max(max)
    .refine((value) => hasNoControlCharacters(value), 'must not contain control characters')
    .refine(isWellFormedText, 'must be valid Unicode text');
}

/**
 * `status` (reader → server, QoS 1, retained): on connect and as a heartbeat at least every 30 s;
 * the last will is `{ "online": false }` (retained).
 */
export const readerStatusSchema = z.union([
  z.object({
    online: z.literal(true),
    firmware: protocolText(64),
    ts: instant,
  }),
  z.object({ online: z.literal(false), ts: instant.optional() }),
]);
export type ReaderStatus = z.infer<typeof readerStatusSchema>;

/** `enroll` (server → reader, QoS 1, not retained): read one card or enrol one finger before expiresAt. */
export const enrollRequestSchema = z.object({
  requestId: z.string().min(1).max(64),
  kind: enrollmentKindSchema,
  expiresAt: instant,
});
export type EnrollRequest = z.infer<typeof enrollRequestSchema>;

/** `enroll/cancel` (server → reader, QoS 1): the admin gave up; the reader stops waiting. */
export const enrollCancelSchema = z.object({ requestId: z.string().min(1).max(64) });
export type EnrollCancel = z.infer<typeof enrollCancelSchema>;

export const ENROLL_ERRORS = ['expired', 'unsupported', 'busy', 'failed'] as const;
export type EnrollError = (typeof ENROLL_ERRORS)[number];

/**
 * `enroll/result` (reader → server, QoS 1): the card's UID (hex) or the finger's template id, or
 * why there is none. The server takes the first answer to a pending, unexpired request of this
 * reader and ignores any other.
 */
export const enrollResultSchema = z.union([
  z.object({
    requestId: protocolText(64),
    ok: z.literal(true),
    kind: enrollmentKindSchema,
    value: protocolText(64),
  }),
  z.object({
    requestId: protocolText(64),
    ok: z.literal(false),
    error: z.enum(ENROLL_ERRORS),
  }),
]);
export type EnrollResult = z.infer<typeof enrollResultSchema>;

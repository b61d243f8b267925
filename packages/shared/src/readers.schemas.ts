import { z } from 'zod';
import { enrollmentKindSchema, readerKindSchema } from './reader-protocol';
import { idSchema, lineText } from './safe-input';

// Enrollment readers (issue 21, item 5; docs/decisions.md "Enrollment readers"): desk readers paired
// with a portal, and the enrollments an admin starts from a person's card or fingerprint form.

/** A paired reader as the API answers it; online is its last status while heard from recently. */
export const readerSchema = z.object({
  _id: z.string(),
  name: z.string(),
  kind: readerKindSchema,
  online: z.boolean(),
  lastSeenAt: z.iso.datetime().nullable(),
  firmware: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type Reader = z.infer<typeof readerSchema>;

export const readersListSchema = z.object({ items: z.array(readerSchema), total: z.number().int() });
export type ReadersList = z.infer<typeof readersListSchema>;

/** POST portal/reader: pair a reader. */
export const readerCreateSchema = z.object({
  name: lineText().min(1, 'is required').max(80),
  kind: readerKindSchema,
});
export type ReaderCreate = z.input<typeof readerCreateSchema>;

/** POST portal/reader/{id}: rename it (or say what it reads). */
export const readerUpdateSchema = z.object({
  name: lineText().min(1, 'is required').max(80),
  kind: readerKindSchema.optional(),
});
export type ReaderUpdate = z.input<typeof readerUpdateSchema>;

/** The answer to pairing: the reader, its secret (this once) and where it connects. */
export const readerPairedSchema = z.object({
  reader: readerSchema,
  secret: z.string(),
  brokerUrl: z.string(),
});
export type ReaderPaired = z.infer<typeof readerPairedSchema>;

/** POST portal/reader/{id}/enroll: ask the reader for a card or a finger for this person. */
export const enrollmentStartSchema = z.object({
  kind: enrollmentKindSchema,
  userId: idSchema,
});
export type EnrollmentStart = z.input<typeof enrollmentStartSchema>;

/**
 * waiting (sent, no answer yet) → read (value holds the card UID or template id) | failed (the
 * reader said why) | expired (no answer in time) | cancelled (the admin gave up).
 */
export const ENROLLMENT_STATES = ['waiting', 'read', 'failed', 'expired', 'cancelled'] as const;
export const enrollmentStateSchema = z.enum(ENROLLMENT_STATES);
export type EnrollmentState = z.infer<typeof enrollmentStateSchema>;

export const enrollmentSchema = z.object({
  _id: z.string(),
  reader: z.object({ _id: z.string(), name: z.string() }),
  kind: enrollmentKindSchema,
  userId: z.string().nullable(),
  state: enrollmentStateSchema,
  /** The card's UID (upper-case hex) or the finger's template id, once read. */
  value: z.string().nullable(),
  /** Why the reader gave none (failed): expired, unsupported, busy, failed, unreadable. */
  error: z.string().nullable(),
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
});
export type Enrollment = z.infer<typeof enrollmentSchema>;

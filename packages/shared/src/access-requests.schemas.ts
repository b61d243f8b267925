import { z } from 'zod';
import { scheduleSchema } from './access';
import { idSchema, integerParam, multilineText } from './safe-input';

/**
 * Access requests (issue 21, the `accessRequest` collection): a person of a portal asks its admins
 * for access to one of its locks, with a note; an admin grants it with a schedule (direct access
 * through the access service: the lock's credential set changes) or declines it with a reason; the
 * person sees the answer.
 */
export const ACCESS_REQUEST_STATUSES = ['waiting', 'granted', 'declined', 'withdrawn'] as const;
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number];

export const ACCESS_REQUEST_NOTE_MAX = 1000;

/** POST portal/accessRequest: the lock and why. */
export const accessRequestInputSchema = z.object({
  deviceId: idSchema,
  note: multilineText().max(ACCESS_REQUEST_NOTE_MAX).default(''),
});
export type AccessRequestInput = z.input<typeof accessRequestInputSchema>;

/** POST portal/accessRequest/{id}/grant: the schedule the person gets at the lock (null: at any time). */
export const accessRequestGrantSchema = z.object({ schedule: scheduleSchema.nullable() });
export type AccessRequestGrant = z.infer<typeof accessRequestGrantSchema>;

/** POST portal/accessRequest/{id}/decline: the reason the person reads. */
export const accessRequestDeclineSchema = z.object({
  reason: multilineText().min(1, 'is required').max(ACCESS_REQUEST_NOTE_MAX),
});
export type AccessRequestDecline = z.infer<typeof accessRequestDeclineSchema>;

const ref = z.object({ _id: z.string(), name: z.string() });

export const accessRequestSchema = z.object({
  _id: z.string(),
  device: ref,
  requester: ref.extend({ email: z.string() }),
  note: z.string(),
  status: z.enum(ACCESS_REQUEST_STATUSES),
  /** The schedule granted (null: at any time), when granted. */
  schedule: scheduleSchema.nullable(),
  reason: z.string(),
  answeredBy: ref.nullable(),
  answeredAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type AccessRequest = z.infer<typeof accessRequestSchema>;

export const accessRequestPageSchema = z.object({
  items: z.array(accessRequestSchema),
  total: z.number().int(),
});
export type AccessRequestPage = z.infer<typeof accessRequestPageSchema>;

/** GET portal/accessRequest (admins: the portal's; `mine`: the caller's own, for anyone). */
export const accessRequestListQuerySchema = z.object({
  skip: integerParam({ min: 0, max: 1_000_000 }).default(0),
  limit: integerParam({ min: 1, max: 100 }).default(25),
  status: z.enum(ACCESS_REQUEST_STATUSES).optional(),
});
export type AccessRequestListQuery = z.infer<typeof accessRequestListQuerySchema>;

/** GET portal/accessRequest/locks: the portal's locks a person may ask for (id and name only). */
export const requestableLockSchema = ref.extend({ hasAccess: z.boolean(), waiting: z.boolean() });
export type RequestableLock = z.infer<typeof requestableLockSchema>;

import { z } from 'zod';
import { idSchema, instantInput, lineText } from './safe-input';
import { listQuerySchema, pageSchema } from './list-query';

/** A lockout as the API answers it: locks blocked for a period. */
export const lockoutRecordSchema = z.object({
  _id: z.string(),
  name: z.string(),
  from: z.iso.datetime(),
  /** Null: until someone ends it. */
  until: z.iso.datetime().nullable(),
  exemptAdmins: z.boolean(),
  /** Each lock with its time zone: the lockout's times are shown on the locks' clock. */
  devices: z.array(z.object({ _id: z.string(), name: z.string(), timeZone: z.string() })),
  /** In force right now. */
  active: z.boolean(),
  createdAt: z.iso.datetime(),
  /** A zone's lockout (features/zones): its locks follow the zone's. Null or absent: a plain lockout. */
  zoneId: z.string().nullable().optional(),
});
export type LockoutRecord = z.infer<typeof lockoutRecordSchema>;

/** POST portal/lockout (create) and POST portal/lockout/{id} (save). */
export const lockoutInputSchema = z
  .object({
    name: lineText().min(1, 'is required').max(80),
    from: instantInput(),
    until: instantInput().nullable().default(null),
    exemptAdmins: z.boolean().default(false),
    deviceIds: z.array(idSchema).min(1, 'must name at least one lock').max(5000),
  })
  .refine((l) => l.until === null || new Date(l.until) > new Date(l.from), {
    message: 'must be after from',
    path: ['until'],
  });
export type LockoutInput = z.input<typeof lockoutInputSchema>;

export const LOCKOUT_STATES = ['active', 'upcoming', 'past'] as const;
export const lockoutsQuerySchema = listQuerySchema({
  sortBy: ['from', 'name', 'createdAt'],
  filterBy: ['state'],
});
export type LockoutsQuery = z.output<typeof lockoutsQuerySchema>;
export const lockoutsPageSchema = pageSchema(lockoutRecordSchema);

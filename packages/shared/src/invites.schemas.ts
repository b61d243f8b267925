import { z } from 'zod';
import { dateInput, lineText } from './safe-input';
import { weeklyWindowSchema } from './access/access.schemas';

/**
 * A device invite: a guest (no account) gets a time-bounded access code for one lock. The window
 * repeats on `days` from `start` to `end` (the lock's wall clock, overnight allowed) between
 * `startDate` and `endDate` inclusive.
 */
export const deviceInviteSchema = z.object({
  _id: z.string(),
  deviceId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  days: z.array(z.number().int()),
  start: z.string(),
  end: z.string(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  /** The guest's access code, shown to admins so they can pass it on. */
  code: z.string(),
  /** upcoming: before startDate; active: within the dates; ended: after endDate (the lock's dates). */
  state: z.enum(['upcoming', 'active', 'ended']),
  lastSentAt: z.iso.datetime().nullable(),
  sentCount: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type DeviceInvite = z.infer<typeof deviceInviteSchema>;

/** POST device/{id}/invite (create) and POST device/{id}/invite/{inviteId} (save). */
export const deviceInviteInputSchema = z
  .object({
    name: lineText().min(1, 'is required').max(80),
    email: z
      .union([z.email('must be an email address').trim().toLowerCase().max(254), z.literal('')])
      .default(''),
    phone: lineText()
      .max(32)
      .regex(/^(\+?[\d ()-]{6,32})?$/, 'must be a phone number such as +49 30 1234567')
      .default(''),
    days: weeklyWindowSchema.shape.days,
    start: weeklyWindowSchema.shape.start,
    end: weeklyWindowSchema.shape.end,
    startDate: dateInput(),
    endDate: dateInput(),
    /** The guest's code; left out, the server picks one the lock's keypad accepts. */
    code: lineText().max(32).optional(),
    /** Whether to email the guest their code now (needs an email). */
    send: z.boolean().default(false),
  })
  .refine((invite) => invite.start !== invite.end, {
    message: 'end must differ from start (use 00:00–24:00 for a whole day)',
    path: ['end'],
  })
  .refine((invite) => invite.endDate >= invite.startDate, {
    message: 'endDate must not be before startDate',
    path: ['endDate'],
  })
  .refine((invite) => !invite.send || invite.email !== '', {
    message: 'is required to send the invitation',
    path: ['email'],
  });
export type DeviceInviteInput = z.input<typeof deviceInviteInputSchema>;

import { z } from 'zod';
import { listQuerySchema, pageSchema } from './list-query';

/** A message of the outbox, as platform staff see it in the dev mailbox. */
export const outboxMessageSchema = z.object({
  _id: z.string(),
  template: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  sentAt: z.iso.datetime().nullable(),
  failedAt: z.iso.datetime().nullable(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

/** GET admin/mail: newest first; search on address and subject. */
export const outboxQuerySchema = listQuerySchema({ sortBy: ['createdAt'], filterBy: ['template'] });
export const outboxPageSchema = pageSchema(outboxMessageSchema);

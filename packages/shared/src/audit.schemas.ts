import { z } from 'zod';
import { instantInput } from './safe-input';
import { listQuerySchema, pageSchema } from './list-query';

/** One entry of the admin change log. */
export const auditEntrySchema = z.object({
  _id: z.string(),
  actor: z.object({ _id: z.string(), email: z.string(), name: z.string() }).nullable(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  ip: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditQuerySchema = listQuerySchema({
  sortBy: ['createdAt'],
  filterBy: ['entityType', 'entityId', 'deviceId', 'userId', 'action', 'actor'],
}).and(
  z.object({
    fromDate: instantInput().optional(),
    toDate: instantInput().optional(),
  }),
);
export type AuditQuery = z.output<typeof auditQuerySchema>;
export const auditPageSchema = pageSchema(auditEntrySchema);

import { z } from 'zod';
import { lineText, multilineText } from './safe-input';
import { listQuerySchema, pageSchema } from './list-query';

/** A group gives its people access to its locks. */
export const groupSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  userCount: z.number().int(),
  deviceCount: z.number().int(),
  createdAt: z.iso.datetime(),
});
export type Group = z.infer<typeof groupSchema>;

/** POST portal/group (create) and POST portal/group/{id} (save). */
export const groupInputSchema = z.object({
  name: lineText().min(1, 'is required').max(80),
  description: multilineText().max(500).default(''),
});
export type GroupInput = z.input<typeof groupInputSchema>;

export const groupsQuerySchema = listQuerySchema({ sortBy: ['name', 'createdAt'], filterBy: ['name'] });
export type GroupsQuery = z.output<typeof groupsQuerySchema>;
export const groupsPageSchema = pageSchema(groupSchema);

/** A short reference to a person or a lock in a group's lists. */
export const groupUserSchema = z.object({
  _id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
});
export const groupDeviceSchema = z.object({ _id: z.string(), name: z.string(), timeZone: z.string() });

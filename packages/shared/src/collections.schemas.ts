import { z } from 'zod';
import { integerParam } from './safe-input';

// The brief §7 generic collection protocol (issue 21, item 3): every collection of §3 mapped onto
// the feature behind it (apps/server/src/features/collections). What all collections share is here;
// each collection's record, filter and bodies are its feature's own schemas.

/**
 * Where a client's last `ls` ended: opaque text (`<position>.<sequence>`), given back as `since`.
 * Positions grow with each committed change (docs/decisions.md "Collections").
 */
export const collectionCursorSchema = z
  .string()
  .regex(/^\d{1,19}\.\d{1,19}$/, 'is not a cursor from ls')
  .describe('The `next` of the previous ls: only changes after it');

/** POST {collection}/ls: what changed since the last call (no `since`: everything there is). */
export const collectionChangesRequestSchema = z.object({
  since: collectionCursorSchema.optional(),
  limit: integerParam({ min: 1, max: 1000 }).default(500),
});
export type CollectionChangesRequest = z.output<typeof collectionChangesRequestSchema>;

/**
 * The answer of POST {collection}/ls: records changed (as GET {collection}/{id} answers them, only
 * those the caller may read) and the ids deleted since `since`, and `next`, the `since` of the next
 * call. `more` says the page is full: call again with `next` straight away.
 */
export function collectionChangesSchema<Item extends z.ZodType>(record: Item) {
  return z.object({
    changed: z.array(record),
    deleted: z.array(z.string()).describe('Ids of records deleted since `since`: drop them'),
    next: z.string().describe('Give this as `since` next time'),
    more: z.boolean().describe('More changes are waiting: call again with `next` at once'),
  });
}

/** The answer of POST {collection} (a list with a filter): a page and the total matching it. */
export function collectionPageSchema<Item extends z.ZodType>(record: Item) {
  return z.object({
    items: z.array(record),
    total: z.number().int(),
    next: z.string().optional().describe('Pass as `after` for the next page; absent on the last page'),
  });
}

/** POST device/unlock/{id}, device/lock/{id}: a remote command (the body may be empty). */
export const collectionCommandBodySchema = z.object({}).strict();

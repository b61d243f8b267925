import { z } from 'zod';
import { idSchema, lineText } from './safe-input';

/** The kinds of record the global search finds, in the order the palette lists them. */
export const SEARCH_KINDS = ['person', 'lock', 'card', 'listing', 'stay', 'bill'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** At most this many results of each kind: the palette is for jumping to a record, not browsing. */
export const SEARCH_RESULTS_PER_KIND = 5;

/**
 * GET portal/search?q=: what a person typed into the palette. Three characters at least (a trigram:
 * the shortest term the people and lock indexes answer; fewer would read every row of the portal),
 * 100 at most, one line of ordinary text. LIKE's wildcards in it are taken literally.
 */
export const searchQuerySchema = z.object({
  q: lineText().min(3, 'must be at least 3 characters').max(100, 'must be at most 100 characters'),
});
export type SearchQuery = z.output<typeof searchQuerySchema>;

/** One thing the search found: what it is, its id, what to show and a line of context. */
export const searchResultSchema = z.object({
  kind: z.enum(SEARCH_KINDS),
  _id: z.string(),
  title: z.string(),
  /** A second line: the email, the card's holder, the stay's dates, the bill's month. */
  detail: z.string(),
  /**
   * What the screen a result opens needs beyond its id: a card's holder (null: nobody holds it, the
   * card list), a stay's listing, a bill's month as 'YYYY-MM'; null for the others.
   */
  ref: z.string().nullable(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

export const searchAnswerSchema = z.object({
  q: z.string(),
  results: z.array(searchResultSchema),
});
export type SearchAnswer = z.infer<typeof searchAnswerSchema>;

/** POST portal/users/access: give or remove access to one lock or one group for several people at once. */
export const bulkAccessInputSchema = z.object({
  userIds: z
    .array(idSchema)
    .min(1, 'must name at least one person')
    .max(500, 'must name at most 500 people')
    .refine((ids) => new Set(ids).size === ids.length, 'must not name a person twice'),
  /** A lock (direct access) or a group (membership of it). */
  target: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('lock'), id: idSchema }),
    z.object({ kind: z.literal('group'), id: idSchema }),
  ]),
  change: z.enum(['grant', 'revoke']),
});
export type BulkAccessInput = z.input<typeof bulkAccessInputSchema>;

/** What a bulk access change did: every person changed, and the locks whose credentials follow. */
export const bulkAccessResultSchema = z.object({
  /** How many of the people were changed (the others already had, or lacked, that access). */
  changed: z.number().int(),
  people: z.number().int(),
  /** The locks recomputed and sent their new credential set. */
  lockIds: z.array(z.string()),
});
export type BulkAccessResult = z.infer<typeof bulkAccessResultSchema>;

import { z } from 'zod';
import { integerParam, lineText, multilineText, searchTextSchema } from './safe-input';

/**
 * Client error reports (issue 21, the `error` collection): the web app reports an uncaught error
 * (its message, stack, the screen's address, the build and the browser), anonymously or signed in;
 * the server keeps one row per fingerprint (message + top stack frame + build) with a count and the
 * first and last time it was seen, for platform staff to read and mark resolved.
 */

/** The longest message, stack, address and user agent a report may carry (the body is capped too). */
export const CLIENT_ERROR_LIMITS = {
  message: 1000,
  stack: 8000,
  route: 500,
  build: 100,
  userAgent: 500,
} as const;

/** POST clientErrors: one uncaught error, as the page saw it. */
export const clientErrorReportSchema = z.object({
  message: lineText().min(1, 'is required').max(CLIENT_ERROR_LIMITS.message),
  stack: multilineText().max(CLIENT_ERROR_LIMITS.stack).default(''),
  route: lineText().max(CLIENT_ERROR_LIMITS.route).default(''),
  build: lineText().max(CLIENT_ERROR_LIMITS.build).default(''),
  userAgent: lineText().max(CLIENT_ERROR_LIMITS.userAgent).default(''),
});
export type ClientErrorReport = z.input<typeof clientErrorReportSchema>;

export const clientErrorReceiptSchema = z.object({ _id: z.string(), count: z.number().int() });

export const CLIENT_ERROR_STATUSES = ['open', 'resolved'] as const;
export type ClientErrorStatus = (typeof CLIENT_ERROR_STATUSES)[number];

export const clientErrorSchema = z.object({
  _id: z.string(),
  fingerprint: z.string(),
  message: z.string(),
  /** The first stack frame of the error's own code: part of the fingerprint. */
  topFrame: z.string(),
  route: z.string(),
  build: z.string(),
  userAgent: z.string(),
  count: z.number().int(),
  status: z.enum(CLIENT_ERROR_STATUSES),
  firstSeen: z.iso.datetime(),
  lastSeen: z.iso.datetime(),
  resolvedAt: z.iso.datetime().nullable(),
  resolvedBy: z.object({ _id: z.string(), name: z.string() }).nullable(),
});
export type ClientError = z.infer<typeof clientErrorSchema>;

/** One report with its whole stack (the list leaves it out). */
export const clientErrorDetailSchema = clientErrorSchema.extend({ stack: z.string() });
export type ClientErrorDetail = z.infer<typeof clientErrorDetailSchema>;

export const clientErrorPageSchema = z.object({ items: z.array(clientErrorSchema), total: z.number().int() });
export type ClientErrorPage = z.infer<typeof clientErrorPageSchema>;

/** GET system/errors: the most recently seen first; by status and a search of the message or address. */
export const clientErrorListQuerySchema = z.object({
  skip: integerParam({ min: 0, max: 1_000_000 }).default(0),
  limit: integerParam({ min: 1, max: 100 }).default(25),
  status: z.enum(CLIENT_ERROR_STATUSES).optional(),
  search: searchTextSchema.optional(),
});
export type ClientErrorListQuery = z.infer<typeof clientErrorListQuerySchema>;

/** POST system/errors/{id}: mark resolved (or open again). */
export const clientErrorUpdateSchema = z.object({ status: z.enum(CLIENT_ERROR_STATUSES) });
export type ClientErrorUpdate = z.infer<typeof clientErrorUpdateSchema>;

/**
 * The first frame of a stack that names code (`at f (url:1:2)` in Chrome, `f@url:1:2` in Firefox and
 * Safari), without its column: one error thrown from one place is one fingerprint whatever the
 * browser's wording of the lines above. Shared by the page (once per fingerprint per load) and the server.
 */
export function topStackFrame(stack: string): string {
  for (const raw of stack.split('\n')) {
    const line = raw.trim();
    if (/^at\s/.test(line) || /@\S+:\d+/.test(line)) {
      return line
        .replace(/^at\s+/, '')
        .replace(/(:\d+):\d+(\)?)$/, '$1$2')
        .slice(0, 300);
    }
  }
  return '';
}

import type { FastifyInstance } from 'fastify';
import { AppError } from './errors';

/** Runs of percent-escaped bytes in a query string (`%E2%82%AC`). */
const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** True when some percent-escaped bytes of `query` are not UTF-8 (a lone surrogate as a careless client encodes it). */
export function hasMalformedUtf8(query: string): boolean {
  for (const [run] of query.matchAll(PERCENT_RUN)) {
    const bytes = Uint8Array.from(run.slice(1).split('%'), (hex) => Number.parseInt(hex, 16));
    try {
      strictUtf8.decode(bytes);
    } catch {
      return true;
    }
  }
  return false;
}

/**
 * A query string whose escaped bytes are not UTF-8 is a 400 on every API route, as a path with
 * them is (the router's FST_ERR_BAD_URL). The query parser would read them as U+FFFD, so a lone
 * surrogate sent in a query reached the route as other text than was sent: the same value is
 * refused in a body by the safe-text schemas (docs/decisions.md "One safe text type, checked
 * from the route registry").
 */
export function registerQueryTextCheck(app: FastifyInstance, apiPrefix: string): void {
  app.addHook('onRequest', async (request) => {
    const start = request.url.indexOf('?');
    if (start === -1 || !request.url.startsWith(`${apiPrefix}/`)) return;
    if (hasMalformedUtf8(request.url.slice(start + 1))) {
      throw AppError.badRequest('The query string is not valid UTF-8 text', [
        { path: 'querystring', message: 'must be valid Unicode text' },
      ]);
    }
  });
}

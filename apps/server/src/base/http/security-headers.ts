import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets for `options`, computed once: they are the same on every answer
 * (@fastify/helmet rebuilt helmet's middleware, its policy parsing included, on every request).
 */
function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
    removeHeader: () => {},
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return headers;
}

/** Where the built web app keeps the brands' pictures (apps/web/public/brands). */
export const BRANDS_PATH = '/brands';

/**
 * Security headers on every answer (helmet) and a strict cross-origin policy: the SPA is served by
 * this server, so browsers get no CORS grant unless CORS_ORIGINS names other origins. Scripts come
 * from this origin only, and from the session recorder's (SESSION_RECORDER_URL) when one is set:
 * its script, and the recordings it sends back there.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  corsOrigins: string[],
  sessionRecorderUrl?: string,
): Promise<void> {
  const recorder = sessionRecorderUrl ? [new URL(sessionRecorderUrl).origin] : [];
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...recorder],
        // Mantine sets style attributes and CSS variables inline.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // QR codes (two-factor set-up) are data: URLs; pictures fetched with the session (a support
        // request's) or chosen for upload (their previews) are blob: URLs the page itself made.
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...recorder],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The API docs page loads its own scripts from this origin.
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'no-referrer' },
  });
  // The brands' pictures are what mails show (mail.templates.ts points their <img> here): a webmail
  // page, or the dev mailbox's sandboxed preview (an opaque origin), loads them from another origin,
  // which helmet's `same-origin` would block. They are public pictures, so any origin may embed them.
  const brandHeaders = { ...headers, 'cross-origin-resource-policy': 'cross-origin' };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith(`${BRANDS_PATH}/`) ? brandHeaders : headers);
    done();
  });
  await app.register(fastifyCors, {
    origin: corsOrigins.length > 0 ? corsOrigins : false,
    credentials: false,
    maxAge: 600,
  });
}

/**
 * Every API answer is `Cache-Control: no-store`: they carry people's data for one session, which
 * no browser or proxy cache should keep. An answer that chose its own caching keeps it; the
 * built web app (served outside the API prefix) keeps its long-lived asset caching.
 */
export function registerApiNoStore(app: FastifyInstance, apiPrefix: string): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.url;
    const isApi = url === apiPrefix || url.startsWith(`${apiPrefix}/`) || url.startsWith(`${apiPrefix}?`);
    if (isApi && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}

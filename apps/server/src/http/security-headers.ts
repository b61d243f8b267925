import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every answer (helmet) and a strict cross-origin policy: the SPA is served by
 * this server, so browsers get no CORS grant unless CORS_ORIGINS names other origins.
 */
export async function registerSecurityHeaders(app: FastifyInstance, corsOrigins: string[]): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine sets style attributes and CSS variables inline.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // QR codes (two-factor set-up) are data: URLs.
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
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
  await app.register(fastifyCors, {
    origin: corsOrigins.length > 0 ? corsOrigins : false,
    credentials: false,
    maxAge: 600,
  });
}

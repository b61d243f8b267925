import {
  CLIENT_VERSION_HEADER,
  clientEchoSchema,
  developerCallInputSchema,
  developerCallResultSchema,
  sealCheckInputSchema,
  sealCheckResultSchema,
  sealProbeDigest,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { consume, type RateLimitStore } from '../../base/rate-limits/rate-limiters';
import { runDeveloperCall } from './developer-call.service';

/** A console call's request body, its JSON text included (the schema caps that text itself). */
const DEVELOPER_CALL_BODY_LIMIT = 512 * 1024;
/** Seal checks one address may make a minute: each stores a nonce for five minutes. */
const SEAL_CHECKS_PER_MINUTE = 30;
/** The longest version header echoed back. */
const ECHOED_VERSION_CHARS = 40;

/**
 * Developer tools (issue 20, item 3): the API console's developer call (platform staff), and the
 * two public routes the /test/api page checks the API with. Those answer only what the caller sent
 * or can read anyway (their own header and address, the server's clock, a digest of their probe).
 */
export const devToolsRoutes: FastifyPluginAsyncZod<{ limits: RateLimitStore }> = async (app, options) => {
  routesOfFeature(app, 'dev-tools');
  const sealChecks = options.limits.limiter({
    keyPrefix: 'seal-check-ip',
    points: SEAL_CHECKS_PER_MINUTE,
    duration: 60,
  });

  app.post(
    '/system/developerCall',
    {
      config: { access: access.platform, example: { body: { method: 'GET', path: 'portal/devices' } } },
      bodyLimit: DEVELOPER_CALL_BODY_LIMIT,
      schema: {
        tags: ['dev-tools'],
        summary:
          'Platform staff: run one API call as yourself (any method, a path under /api3, a JSON body); audited',
        body: developerCallInputSchema,
        response: { 200: developerCallResultSchema, ...errorResponses },
      },
    },
    (request) => runDeveloperCall(app, request, request.body),
  );

  app.get(
    '/about/client',
    {
      config: { access: access.public },
      schema: {
        tags: ['dev-tools'],
        summary: 'What the server saw of this request: the version header, the address, its clock',
        response: { 200: clientEchoSchema, ...errorResponses },
      },
    },
    (request) => {
      const version = request.headers[CLIENT_VERSION_HEADER];
      const versionHeader = typeof version === 'string' ? version.slice(0, ECHOED_VERSION_CHARS) : null;
      return { versionHeader, clientAddress: request.ip, serverTime: new Date().toISOString() };
    },
  );

  app.post(
    '/about/sealCheck',
    {
      config: { access: access.public, sealed: true },
      // Counted before the envelope is opened and its nonce stored.
      onRequest: async (request) => consume(sealChecks, request.ip),
      schema: {
        tags: ['dev-tools'],
        summary: 'A sealed envelope round trip: the server opens a probe and answers its SHA-512 digest',
        body: sealCheckInputSchema,
        response: { 200: sealCheckResultSchema, ...errorResponses },
      },
    },
    (request) => ({ digest: sealProbeDigest(request.body.probe), serverTime: new Date().toISOString() }),
  );
};

import { openSealedPayload, SEAL_MAX_CLOCK_SKEW_MS, sealedEnvelopeSchema } from '@latchkey/shared';
import type { FastifyInstance } from 'fastify';
import { purgeExpiredSealNonces, recordSealNonce } from '../identity/seal-nonces.repository';
import { AppError } from './errors';

const PURGE_EVERY_MS = 60_000;

/**
 * Opens sealed request bodies (routes with `config.sealed`) before validation, so the route's
 * schema checks the payload inside. An envelope that is malformed, does not open, is more than
 * five minutes from our clock or was used before gets a 400.
 */
export function registerSealedBodies(app: FastifyInstance): void {
  let lastPurge = 0;

  app.addHook('preValidation', async (request) => {
    if (!request.routeOptions.config.sealed) return;
    const envelope = sealedEnvelopeSchema.safeParse(request.body);
    if (!envelope.success) {
      throw AppError.badRequest('The body must be a sealed envelope { m, k: 2, n, p }', [
        ...envelope.error.issues.map((issue) => ({
          path: ['body', ...issue.path].join('.'),
          message: issue.message,
        })),
      ]);
    }
    const { n, p } = envelope.data;
    const sentAt = Number(n);
    const now = Date.now();
    if (Math.abs(now - sentAt) > SEAL_MAX_CLOCK_SKEW_MS) {
      throw AppError.badRequest('The sealed payload is too old or from the future; check the clock');
    }
    const payload = openSealedPayload(envelope.data, app.secrets.seal.secretKey);
    if (payload === undefined) throw AppError.badRequest('The sealed payload does not open');

    if (now - lastPurge > PURGE_EVERY_MS) {
      lastPurge = now;
      await purgeExpiredSealNonces(app.db, new Date(now).toISOString());
    }
    const expiresAt = new Date(sentAt + SEAL_MAX_CLOCK_SKEW_MS).toISOString();
    if (!(await recordSealNonce(app.db, p, n, expiresAt))) {
      throw AppError.badRequest('The sealed payload was already used');
    }
    request.body = payload;
  });
}

import { ERROR_STATUS, type ErrorCode, type ErrorResponse } from '@latchkey/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

type Detail = { path: string; message: string };

/** The one error type services throw; its code decides the HTTP status. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode | (string & {}),
    message: string,
    readonly status: number = ERROR_STATUS[code as ErrorCode] ?? 400,
    readonly details?: Detail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  static badRequest(message: string, details?: Detail[]) {
    return new AppError('bad_request', message, 400, details);
  }
  static unauthorized(message = 'Sign in first') {
    return new AppError('unauthorized', message, 401);
  }
  static forbidden(message = 'You may not do this') {
    return new AppError('forbidden', message, 403);
  }
  static notFound(what = 'Resource') {
    return new AppError('not_found', `${what} not found`, 404);
  }
  static conflict(message: string) {
    return new AppError('conflict', message, 409);
  }
  static rateLimited(retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    return new AppError('rate_limited', `Too many attempts; try again in ${seconds} s`, 429, undefined, {
      'retry-after': String(seconds),
    });
  }
}

function body(code: string, message: string, details?: Detail[]): ErrorResponse {
  return { error: details ? { code, message, details } : { code, message } };
}

/**
 * The longest path parameter the router takes (Fastify's `maxParamLength`): room for any email
 * address (254 characters), even fully percent-encoded. Longer ones never reach a route's schema
 * and get a 400 from `answerFrameworkError`; shorter ones are checked by the route (ids: 64).
 */
export const MAX_PARAM_LENGTH = 1024;

/**
 * Fastify's `frameworkErrors`: errors the router raises before any route or hook runs (a path
 * parameter longer than MAX_PARAM_LENGTH, a malformed percent-encoding). They answer 400 in the
 * one error shape instead of Fastify's own `{ error, code, message, statusCode }`.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? `A path parameter is longer than ${MAX_PARAM_LENGTH} characters`
      : error.code === 'FST_ERR_BAD_URL'
        ? 'The path is not a valid URL (malformed percent-encoding)'
        : 'Bad request';
  // No route hooks run for these answers: the API's cache rule is applied here.
  return reply.status(400).header('cache-control', 'no-store').send(body('bad_request', message));
}

/** Installs the error handler (one JSON shape; a 5xx never shows internals) and the API 404. */
export function registerErrorHandling(app: FastifyInstance, apiPrefix: string): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.status(error.status).send(body(error.code, error.message, error.details));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((issue) => ({
        path: [error.validationContext, ...issue.instancePath.split('/').filter(Boolean)].join('.'),
        message: issue.message ?? 'is not valid',
      }));
      const first = details[0];
      return reply
        .status(400)
        .send(body('bad_request', first ? `${first.path}: ${first.message}` : 'Bad request', details));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, wrong content type, body too large, ...
      const code =
        { 413: 'payload_too_large', 415: 'unsupported_media_type', 429: 'rate_limited' }[status] ??
        'bad_request';
      return reply.status(status).send(body(code, error.message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(body('internal', 'Something went wrong on our side'));
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url === apiPrefix || request.url.startsWith(`${apiPrefix}/`)) {
      return reply
        .status(404)
        .send(body('not_found', `No API route ${request.method} ${request.url.split('?')[0]}`));
    }
    return reply.status(404).send(body('not_found', 'Not found'));
  });
}

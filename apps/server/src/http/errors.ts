import { ERROR_STATUS, type ErrorCode, type ErrorResponse } from '@latchkey/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
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

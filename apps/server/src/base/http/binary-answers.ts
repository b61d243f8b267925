import { BINARY_ANSWER_ROUTES, MSGPACK_MEDIA_TYPE } from '@latchkey/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Packr } from 'msgpackr';
import type { z } from 'zod';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers MessagePack when asked (BINARY_ANSWER_ROUTES; set by registerBinaryAnswers). */
    binaryAnswer?: boolean;
  }
}

/**
 * Plain MessagePack (maps, no msgpackr records or structures), so any MessagePack decoder reads it.
 * Dates never reach it: answers are their zod schema's output, where instants are ISO strings.
 */
const packr = new Packr({ useRecords: false, moreTypes: false });

/** Whether the request's Accept header asks for MessagePack (a bare `*` or JSON keeps JSON). */
export function acceptsMsgpack(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    if (type?.trim() !== MSGPACK_MEDIA_TYPE) return false;
    // `;q=0` refuses it.
    return !params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param));
  });
}

/** The OpenAPI description of the MessagePack alternative of an answer. */
export const MSGPACK_CONTENT = {
  schema: {
    type: 'string',
    format: 'binary',
    description: `With \`Accept: ${MSGPACK_MEDIA_TYPE}\`: the same record as the JSON answer, encoded as MessagePack (maps with string keys; instants as ISO strings).`,
  },
} as const;

type ResponseSchemas = Record<string, unknown> | undefined;

/** Serializes the answer as its route's zod schema outputs it (undeclared fields never leave), as MessagePack. */
function msgpackSerializer(reply: FastifyReply, responses: ResponseSchemas) {
  return (payload: unknown): string | Buffer => {
    const schema = responses?.[String(reply.statusCode)] as z.ZodType | undefined;
    if (reply.statusCode >= 300 || !schema || typeof schema.parse !== 'function') {
      // Errors (and anything without a declared record) stay JSON, as every client reads them.
      reply.type('application/json; charset=utf-8');
      return JSON.stringify(payload);
    }
    return packr.pack(schema.parse(payload));
  };
}

/**
 * MessagePack answers for the registered routes (BINARY_ANSWER_ROUTES, packages/shared): marks them
 * as they are added (the OpenAPI document then lists the alternative content type), and, for a
 * request whose Accept header asks for it, encodes the answer instead of writing JSON. Both forms
 * vary by Accept. Register before the routes.
 */
export function registerBinaryAnswers(app: FastifyInstance, apiPrefix: string): void {
  const registered = new Set<string>(BINARY_ANSWER_ROUTES);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!route.url.startsWith(`${apiPrefix}/`)) return;
    const path = route.url.slice(apiPrefix.length);
    if (!methods.some((method) => registered.has(`${method} ${path}`))) return;
    route.config = { ...(route.config ?? {}), binaryAnswer: true };
  });
  app.addHook('preHandler', (request, reply, done) => {
    if (request.routeOptions.config.binaryAnswer) {
      reply.header('vary', 'Accept');
      if (acceptsMsgpack(request.headers.accept)) {
        const responses = request.routeOptions.schema?.response as ResponseSchemas;
        reply.type(MSGPACK_MEDIA_TYPE);
        // Fastify sends a serializer's Buffer as it is; its type only names strings.
        reply.serializer(msgpackSerializer(reply, responses) as (payload: unknown) => string);
      }
    }
    done();
  });
}

/** @fastify/compress's own choice of what to compress (its default), and MessagePack answers. */
const COMPRESSED_BY_DEFAULT =
  /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)text(?:;|$)|(?:\+|\/)xml(?:;|$)|octet-stream(?:;|$)/u;

/**
 * What the compression plugin compresses: its defaults and MessagePack, which it would otherwise
 * send as it is (the 100-lock page: 20 KB, against 3 KB of gzipped JSON; docs/benchmarks.md).
 */
export function isCompressibleType(contentType: string): boolean {
  return COMPRESSED_BY_DEFAULT.test(contentType) || contentType.startsWith(MSGPACK_MEDIA_TYPE);
}

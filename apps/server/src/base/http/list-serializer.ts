import { isKeysetPageSchema } from '@latchkey/shared';
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Response serializers. fastify-type-provider-zod's parses every answer with its zod schema and then
 * JSON.stringify's it: for a page of 25 locks that was the largest single cost the stack added to
 * the query (issue 11 item 4). The pages of the keyset lists (people, locks; `keysetPageSchema`)
 * get a serializer compiled once from the same schema's JSON Schema (fast-json-stringify, Fastify's
 * own): it writes only the declared properties, as the zod parse kept only them, so a field a
 * presenter should not have returned still never leaves. Every other answer keeps zod's.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) => {
  if (isKeysetPageSchema(route.schema)) {
    return fastJson(z.toJSONSchema(route.schema, { io: 'output', target: 'draft-7' }) as object);
  }
  return zodSerializerCompiler(route);
};

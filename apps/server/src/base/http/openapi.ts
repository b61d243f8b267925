import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { PORTAL_OVERRIDE_HEADER, scopeFor, type ApiKeyArea } from '@latchkey/shared';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { RouteAccess } from './access';
import { MSGPACK_CONTENT } from './binary-answers';
import { MSGPACK_MEDIA_TYPE } from '@latchkey/shared';

const SEALED_NOTE =
  'Sealed: send the JSON below as an envelope `{ m, k: 2, n, p }`: `m` the base64 NaCl box ' +
  '(curve25519-xsalsa20-poly1305) of the JSON, `n` the current time in milliseconds left-padded ' +
  'with zeros to 24 digits (its 24 ASCII bytes are the nonce), `p` the base64 client public key; ' +
  'boxed to the public key of GET /api3/auth/sealKey. An envelope more than 5 minutes from the ' +
  "server's clock, already used, or that does not open, gets a 400.";

type JsonSchema = Record<string, unknown>;

/** OpenAPI 3.0's form of "only null" (zod writes `z.null()` the same way). */
const NULL_ONLY: JsonSchema = { type: 'string', nullable: true, enum: [null] };
/** Keywords that constrain a value; a nullable schema without any of them takes anything. */
const CONSTRAINING = ['type', 'enum', 'anyOf', 'oneOf', 'allOf', '$ref', 'not', 'properties', 'items'];

/**
 * Makes `nullable` mean what OpenAPI 3.0.3 says it means, in place: it only adds null to a schema
 * with a `type`, and an `enum` must list null itself. The generator writes a nullable enum
 * without null, a nullable union as `{ nullable, anyOf }` and a nullable unknown as
 * `{ nullable }`, so strict validators refused every null such fields answered.
 */
export function fixNullables(schema: unknown): void {
  if (Array.isArray(schema)) return schema.forEach(fixNullables);
  if (schema === null || typeof schema !== 'object') return;
  const node = schema as JsonSchema;
  for (const key of ['items', 'additionalProperties', 'not']) fixNullables(node[key]);
  for (const key of ['anyOf', 'oneOf', 'allOf']) fixNullables(node[key]);
  if (node.properties && typeof node.properties === 'object')
    Object.values(node.properties).forEach(fixNullables);
  if (node.nullable !== true) return;
  if (Array.isArray(node.enum) && !node.enum.includes(null)) node.enum.push(null);
  if (node.type !== undefined) return;
  delete node.nullable;
  const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : null;
  if (union) {
    union.push({ ...NULL_ONLY });
  } else if (CONSTRAINING.some((key) => key in node)) {
    const rest = { ...node };
    for (const key of Object.keys(node)) if (key !== 'description') delete node[key];
    delete rest.description;
    node.anyOf = [rest, { ...NULL_ONLY }];
  }
}

/** The OpenAPI document, generated from the routes' zod schemas, and a browsable page. */
export async function registerOpenApi(app: FastifyInstance, apiPrefix: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Latchkey API',
        version: '1',
        description:
          'Multi-tenant smart-lock portal. Send `Authorization: Bearer <token>` and, to act in ' +
          `another portal you belong to, \`${PORTAL_OVERRIDE_HEADER}: <portal id>\`. Errors are ` +
          '`{ "error": { "code", "message", "details"? } }`.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          // features/api-keys: an operation a key may call names its scope (`security` and
          // `x-latchkey-scope`); one without takes no key.
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'lk_live_<prefix>_<secret>',
            description:
              "A portal's API key (Settings → API keys): `Authorization: Bearer lk_live_…`. It acts in " +
              'its portal as an admin limited to its scopes, `<area>:read` (GET) or `<area>:write` ' +
              '(write implies read), named by each operation in `x-latchkey-scope`.',
          },
        },
      },
    },
    transform: (input) => {
      const output = jsonSchemaTransform(input);
      const config = (input.route.config ?? {}) as {
        access?: RouteAccess;
        sealed?: boolean;
        binaryAnswer?: boolean;
        apiArea?: ApiKeyArea | null;
        readsOnly?: boolean;
      };
      const schema = output.schema as Record<string, unknown>;
      for (const part of ['body', 'querystring', 'params', 'headers']) fixNullables(schema[part]);
      if (schema.response) Object.values(schema.response).forEach(fixNullables);
      if (config.access && config.access.kind !== 'public') schema.security = [{ bearerAuth: [] }];
      if (config.apiArea) {
        const method = [input.route.method].flat()[0] ?? 'GET';
        const scope = scopeFor(config.apiArea, method, config.readsOnly === true);
        schema.security = [{ bearerAuth: [] }, { apiKey: [scope] }];
        schema['x-latchkey-scope'] = scope;
      }
      if (config.sealed) schema.description = SEALED_NOTE;
      const responses = schema.response as Record<string, JsonSchema> | undefined;
      const ok = responses?.['200'];
      if (config.binaryAnswer && ok) {
        // The same record as JSON (first, the default) or as MessagePack (base/http/binary-answers.ts).
        const { description, ...json } = ok;
        responses['200'] = {
          description: description ?? 'Default Response',
          content: { 'application/json': { schema: json }, [MSGPACK_MEDIA_TYPE]: MSGPACK_CONTENT },
        };
      }
      return output;
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: `${apiPrefix}/docs` });
  app.get(
    `${apiPrefix}/openapi.json`,
    { config: { access: { kind: 'public' } }, schema: { hide: true } },
    async () => app.swagger(),
  );
}

import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { PORTAL_OVERRIDE_HEADER } from '@latchkey/shared';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { RouteAccess } from './access';

const SEALED_NOTE =
  'Sealed: send the JSON below as an envelope `{ m, k: 2, n, p }`: `m` the base64 NaCl box ' +
  '(curve25519-xsalsa20-poly1305) of the JSON, `n` the current time in milliseconds left-padded ' +
  'with zeros to 24 digits (its 24 ASCII bytes are the nonce), `p` the base64 client public key; ' +
  'boxed to the public key of GET /api3/auth/sealKey. An envelope more than 5 minutes from the ' +
  "server's clock, already used, or that does not open, gets a 400.";

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
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: (input) => {
      const output = jsonSchemaTransform(input);
      const config = (input.route.config ?? {}) as { access?: RouteAccess; sealed?: boolean };
      const schema = output.schema as Record<string, unknown>;
      if (config.access && config.access.kind !== 'public') schema.security = [{ bearerAuth: [] }];
      if (config.sealed) schema.description = SEALED_NOTE;
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

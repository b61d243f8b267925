import openapiTS, { astToString } from 'openapi-typescript';

/** What `npm run generate -w @latchkey/client` runs; the stale-client test names it. */
export const GENERATE_COMMAND = 'npm run generate -w @latchkey/client';

const HEADER = `// Generated from the served OpenAPI document (GET /api3/openapi.json) by openapi-typescript:
// do not edit. After a change to the API's routes or schemas, run \`${GENERATE_COMMAND}\`
// (apps/server/test/typed-client.test.ts fails while this file is stale).

`;

/** The client's types (src/schema.d.ts) for an OpenAPI document, exactly as committed. */
export async function generateSchema(document: unknown): Promise<string> {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], { alphabetize: true });
  return HEADER + astToString(ast);
}

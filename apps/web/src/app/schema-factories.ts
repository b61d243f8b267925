/**
 * The shared package's schema factories: a call builds a schema and does nothing else. The build
 * (vite.config.ts) marks them free of side effects, so a schema that no page reads (a list's query
 * schema, which only the server parses) is left out instead of built while the page boots: a used
 * module's unused exports otherwise stay in its chunk, calls and all, and building zod schemas is
 * the largest part of evaluating the entry (docs/benchmarks.md, first load). The bundler matches
 * these names in every module, so they are ones no library uses. zod's own `z` is not listed: the
 * one zod call made for its effect (`z.config`, packages/shared/src/zod-jitless.ts) would go too.
 * schema-factories.test.ts holds each name to a function the shared package exports.
 */
export const SCHEMA_FACTORIES = [
  'listQuerySchema',
  'keysetListQuerySchema',
  'pageSchema',
  'keysetPageSchema',
  'collectionPageSchema',
  'collectionChangesSchema',
  'lineText',
  'multilineText',
  'passwordText',
  'dateInput',
  'instantInput',
  'integerParam',
] as const;

import { readFileSync } from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { aboutSchema } from '@latchkey/shared';
import { access } from '../../http/access';
import { errorResponses } from '../../http/responses';

const readPackage = (relative: string) =>
  JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
    version?: string;
    license?: string;
  };
const serverPackage = readPackage('../../../package.json');
const rootPackage = readPackage('../../../../../package.json');
const startedAt = new Date().toISOString();

/** What this installation runs (the about screen). */
export const aboutRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/portal/about',
    {
      config: { access: access.account },
      schema: {
        tags: ['about'],
        summary: 'The product, its version and what this installation runs on',
        response: { 200: aboutSchema, ...errorResponses },
      },
    },
    async () => ({
      name: 'Latchkey',
      version: serverPackage.version ?? '0.0.0',
      licence: rootPackage.license ?? 'unknown',
      database: app.dialect === 'postgres' ? ('postgres' as const) : ('sqlite' as const),
      node: process.version,
      startedAt,
      apiDocs: '/api3/docs',
    }),
  );
};

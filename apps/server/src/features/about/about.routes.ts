import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { aboutSchema, clientConfigSchema } from '@latchkey/shared';
// Imported rather than read from disk: the production build is one bundled file (build.mjs), where
// paths relative to this source file no longer lead to them.
import rootPackageJson from '../../../../../package.json' with { type: 'json' };
import serverPackageJson from '../../../package.json' with { type: 'json' };
import { access, routesOfFeature } from '../../base/http/access';
import { isFeatureEnabled } from '../../base/feature-flags/feature-flags';
import { lockBrokerUrlOf } from '../../config';
import { errorResponses } from '../../base/http/responses';

const serverPackage: { version?: string; license?: string } = serverPackageJson;
const rootPackage: { version?: string; license?: string } = rootPackageJson;
const startedAt = new Date().toISOString();

/** What this installation runs (the about screen). */
export const aboutRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'about');
  app.get(
    '/about/webConfig',
    {
      config: { access: access.public },
      schema: {
        tags: ['about'],
        summary:
          "What the web app reads from the deployment before sign-in: the session recorder's script, if any",
        description:
          'The web app asks only when opened outside local and private-network hosts (brief §7). The recorder is off unless SESSION_RECORDER_URL is set and platform staff switched the deployment’s sessionRecorder feature on.',
        response: { 200: clientConfigSchema, ...errorResponses },
      },
    },
    // Two switches: the deployment says where the script is (SESSION_RECORDER_URL) and platform
    // staff whether it runs (the deployment's `sessionRecorder` feature flag, off by default).
    async () => ({
      sessionRecorderUrl:
        app.config.SESSION_RECORDER_URL && (await isFeatureEnabled(app.db, null, 'sessionRecorder'))
          ? app.config.SESSION_RECORDER_URL
          : null,
    }),
  );

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
      lockBrokerUrl: lockBrokerUrlOf(app.config, app.deviceLink.transport.url),
    }),
  );
};

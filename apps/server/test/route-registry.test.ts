import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { access, registerAccessControl, routesOfFeature } from '../src/base/http/access';
import { TestApp } from './test-app';

// What every API route must declare with itself, so the tests the registry drives (the feature
// specs, isolation, fuzz) cover a new route without a central edit: its feature, its access, and
// what an `:id` in its path names.
describe('the route registry', () => {
  /** The registry after a routes plugin of `feature` (none: a plugin that names none) declared its routes. */
  const registryOf = async (feature: string | null, declare: (app: FastifyInstance) => void) => {
    const root = Fastify();
    const registry = registerAccessControl(root, '/api3');
    await root.register(async (app) => {
      if (feature) routesOfFeature(app, feature);
      declare(app);
    });
    await root.close();
    return registry;
  };
  const handler = async () => ({});

  it('refuses a route that declares no access', async () => {
    await expect(registryOf('things', (app) => app.get('/api3/things', {}, handler))).rejects.toThrow(
      /declares no access/,
    );
  });

  it('refuses a route whose :id or :imageId says nothing of what it names', async () => {
    await expect(
      registryOf('things', (app) =>
        app.get('/api3/thing/:id', { config: { access: access.portalAdmin } }, handler),
      ),
    ).rejects.toThrow('Route GET /api3/thing/:id does not say what :id names (config.ids)');
    await expect(
      registryOf('things', (app) =>
        app.post(
          '/api3/listing/:id/image/:imageId',
          { config: { access: access.portalAdmin, ids: { id: 'listingId' } } },
          handler,
        ),
      ),
    ).rejects.toThrow(/does not say what :imageId names/);
  });

  it('refuses a route of a plugin that names no feature', async () => {
    await expect(
      registryOf(null, (app) => app.get('/api3/things', { config: { access: access.public } }, handler)),
    ).rejects.toThrow('Route GET /api3/things belongs to no feature (routesOfFeature in its plugin)');
  });

  it('names the feature only for the plugin that declares it', async () => {
    const root = Fastify();
    const registry = registerAccessControl(root, '/api3');
    await root.register(async (app) => {
      routesOfFeature(app, 'things');
      app.get('/api3/things', { config: { access: access.public } }, handler);
    });
    await expect(
      root.register(async (app) => {
        app.get('/api3/others', { config: { access: access.public } }, handler);
      }),
    ).rejects.toThrow(/GET \/api3\/others belongs to no feature/);
    expect(registry.map((r) => [r.url, r.feature])).toEqual([['/api3/things', 'things']]);
  });

  it('keeps what a route declares: feature, access, ids and its example request', async () => {
    const registry = await registryOf('things', (app) => {
      app.post(
        '/api3/thing/:id/rename',
        {
          config: {
            access: access.portalAdmin,
            ids: { id: 'deviceId' },
            example: { body: { name: 'Renamed', deviceIds: ['{deviceId}'] } },
          },
        },
        handler,
      );
      app.get('/api3/person/:userId', { config: { access: access.portalAdmin } }, handler); // named: no ids
    });
    expect(registry).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/api3/thing/:id/rename',
        feature: 'things',
        access: access.portalAdmin,
        ids: { id: 'deviceId' },
        example: { body: { name: 'Renamed', deviceIds: ['{deviceId}'] } },
      }),
      expect.objectContaining({ method: 'GET', url: '/api3/person/:userId', feature: 'things', ids: {} }),
    ]);
  });
});

// Each feature's routes are specified in its spec file (route-spec.ts walks them): a feature with
// routes and no spec file fails here, so a new feature cannot skip one.
describe("the server's routes", () => {
  it('are API routes, each of a feature that has its folder and its spec file', async () => {
    const t = await TestApp.start();
    const routes = t.app.routeRegistry;
    await t.close();
    expect(routes.length).toBeGreaterThan(10);
    expect(routes.map((r) => `${r.method} ${r.url}`)).toContain('GET /api3/portal/users');
    const features = [...new Set(routes.map((r) => r.feature))];
    for (const feature of features) {
      // The API document is served by base/http/openapi.ts, not a feature folder.
      if (feature !== 'openapi') {
        expect(fs.existsSync(path.join(import.meta.dirname, '../src/features', feature)), feature).toBe(true);
      }
      const spec = path.join(import.meta.dirname, 'specs', `${feature}.spec.test.ts`);
      expect(fs.existsSync(spec), `test/specs/${feature}.spec.test.ts`).toBe(true);
      expect(fs.readFileSync(spec, 'utf8'), spec).toContain(`specifyRoutes('${feature}'`);
    }
  });
});

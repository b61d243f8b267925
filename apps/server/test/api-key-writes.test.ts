import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleBody, fillUrl, makeTwoPortals, type TwoPortals } from './fixtures';
import { TestApp } from './test-app';

/**
 * Every portal route an API key may call, called with a key of the portal that has every scope and
 * the route's declared example (driven by the route registry, so a new route is walked without
 * anyone adding it). A key acts as no stored person (features/api-keys): a route that writes the
 * caller's id where a person is expected must still answer, never fail with a 5xx.
 */
describe('every route an API key may call answers the key without a 5xx', () => {
  let t: TestApp;
  let portals: TwoPortals;

  beforeAll(async () => {
    t = await TestApp.start();
    portals = await makeTwoPortals(t, { rentals: true, support: true });
  }, 120_000);
  afterAll(() => t?.close());

  it('answers each with a 2xx or a 4xx', async () => {
    const routes = t.app.routeRegistry
      .filter((route) => route.access.kind === 'portal' && route.apiArea)
      // Deletions last, so the records the other routes name are still there.
      .sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
    expect(routes.length).toBeGreaterThan(100);
    const failures: string[] = [];
    for (const route of routes) {
      const request: InjectOptions & { token?: string } = {
        method: route.method as InjectOptions['method'],
        url: fillUrl(route, 'own', portals),
        token: portals.a.apiKey,
      };
      if (route.example) request.payload = exampleBody(route, portals.a) as object;
      else if (route.method === 'POST') request.payload = {};
      const response = await t.request(request);
      if (response.statusCode >= 500)
        failures.push(`${route.method} ${route.url}: ${response.statusCode} ${response.body.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);
});

import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { access, registerAccessControl } from '../src/base/http/access';

// What every API route must declare with itself, so the tests the registry drives (isolation,
// fuzz) cover a new route without a central edit: its access, and what an `:id` in its path names.
describe('the route registry', () => {
  const appWithRegistry = () => {
    const app = Fastify();
    return { app, registry: registerAccessControl(app, '/api3') };
  };
  const handler = async () => ({});

  it('refuses a route that declares no access', () => {
    const { app } = appWithRegistry();
    expect(() => app.get('/api3/things', {}, handler)).toThrow(/declares no access/);
  });

  it('refuses a route whose :id or :imageId says nothing of what it names', () => {
    const { app } = appWithRegistry();
    expect(() => app.get('/api3/thing/:id', { config: { access: access.portalAdmin } }, handler)).toThrow(
      'Route GET /api3/thing/:id does not say what :id names (config.ids)',
    );
    expect(() =>
      app.post(
        '/api3/listing/:id/image/:imageId',
        { config: { access: access.portalAdmin, ids: { id: 'listingId' } } },
        handler,
      ),
    ).toThrow(/does not say what :imageId names/);
  });

  it('keeps what a route declares: access, ids and its example request', () => {
    const { app, registry } = appWithRegistry();
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
    expect(registry).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/api3/thing/:id/rename',
        access: access.portalAdmin,
        ids: { id: 'deviceId' },
        example: { body: { name: 'Renamed', deviceIds: ['{deviceId}'] } },
      }),
      expect.objectContaining({ method: 'GET', url: '/api3/person/:userId', ids: {} }),
    ]);
  });
});

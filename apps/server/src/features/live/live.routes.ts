import { LIVE_PATH } from '@latchkey/shared';
import type { FastifyPluginAsync } from 'fastify';
import { access, routesOfFeature } from '../../base/http/access';

/**
 * GET /live: the live channel's WebSocket (messages in packages/shared/src/live.schemas.ts).
 * The upgrade itself is public because browsers cannot set an Authorization header on a
 * WebSocket; the first message authenticates, with the same token as the HTTP API.
 */
export const liveRoutes: FastifyPluginAsync = async (app) => {
  routesOfFeature(app, 'live');
  app.get(LIVE_PATH, { websocket: true, config: { access: access.public } }, (socket) => {
    app.live.accept(socket);
  });
};

import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { UserRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import { listAccessPaths } from '../access/access.repository';
import { authenticateToken } from '../../base/identity/sessions';
import { actingPortalFor } from '../../base/tenancy/acting-portal';
import { listMembershipsOfUser } from '../../base/tenancy/memberships.repository';
import { InProcessLiveBus, RedisLiveBus } from './live-bus';
import { LiveHub, LiveSessionEnded, type LiveSessions } from './live-hub';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live channel: `app.live.publish(portalId, message)` reaches that portal's sockets. */
    live: LiveHub<UserRow>;
  }
}

/** Client messages are an auth token or a portal id: anything bigger is not one of them. */
const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;

/**
 * Sets up the live channel: the WebSocket support, the hub (decorated as `app.live`) and its bus
 * (Redis with REDIS_URL, else in-process). Register before the routes.
 */
export async function registerLive(app: FastifyInstance, config: Config): Promise<LiveHub<UserRow>> {
  // The same checks as the HTTP API's access control, not copies of them.
  const sessions: LiveSessions<UserRow> = {
    async verify(token) {
      try {
        return (await authenticateToken(app.db, app.secrets.jwtKey, token)).user;
      } catch (error) {
        if (error instanceof AppError && error.status === 401) throw new LiveSessionEnded(error.message);
        throw error;
      }
    },
    async scopeIn(user, portalId) {
      const memberships = await listMembershipsOfUser(app.db, user.id);
      const acting = await actingPortalFor(app.db, user, memberships, portalId);
      if (!acting) return null;
      if (acting.role === 'admin') return { role: 'admin' };
      // A basic user: what concerns them and the locks they reach, as the member routes show.
      const reach = await listAccessPaths(app.db, portalId, { userId: user.id });
      return { role: 'user', userId: user.id, deviceIds: new Set(reach.map((path) => path.deviceId)) };
    },
  };
  const log = app.log.child({ feature: 'live' });
  const redisUrl = config.REDIS_URL;
  const hub = new LiveHub(sessions, log, { sessionCheckMs: config.LIVE_SESSION_CHECK_S * 1000 }, (deliver) =>
    redisUrl ? new RedisLiveBus(redisUrl, deliver, log) : new InProcessLiveBus(deliver),
  );
  app.decorate('live', hub);
  // Added before the WebSocket plugin's own preClose, so sockets get "going away" (1001) and the
  // Redis connections close before the server stops listening.
  app.addHook('preClose', async () => {
    await hub.close();
  });
  await app.register(fastifyWebsocket, { options: { maxPayload: MAX_CLIENT_MESSAGE_BYTES } });
  log.info({ fanOut: redisUrl ? 'redis' : 'in-process' }, 'live channel ready');
  return hub;
}

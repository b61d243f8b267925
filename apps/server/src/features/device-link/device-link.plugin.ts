import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { DeviceLink } from './device-link.service';
import { EmbeddedBroker } from './embedded-broker';
import { ExternalBroker } from './external-broker';
import { PortalSigningKeys } from './portal-signing-keys';

declare module 'fastify' {
  interface FastifyInstance {
    deviceLink: DeviceLink;
  }
}

/** Folds a burst of admin changes (a bulk import, a form saving several parts) into one recomputation. */
const SYNC_DEBOUNCE_MS = 250;

/**
 * Starts the device link (the embedded broker, or a client of MQTT_URL's broker) and recomputes a
 * portal's credential sets after every successful change made in it.
 */
export async function registerDeviceLink(app: FastifyInstance, config: Config): Promise<DeviceLink> {
  const transport = config.MQTT_URL
    ? new ExternalBroker(config.MQTT_URL, app.log)
    : new EmbeddedBroker(app.db, app.log, { port: config.MQTT_PORT, host: config.HOST });
  const link = new DeviceLink(app.db, app.log, transport, {
    heartbeatSeconds: config.MQTT_HEARTBEAT_S,
    commandTtlSeconds: config.MQTT_COMMAND_TTL_S,
    syncDebounceMs: SYNC_DEBOUNCE_MS,
    signingKeys: new PortalSigningKeys(app.secrets.jwtKey),
  });
  await link.start();
  app.decorate('deviceLink', link);

  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || reply.statusCode >= 400) return;
    const auth = request.auth;
    if (!auth) return;
    if (auth.acting) link.scheduleSync(auth.acting.portal.id);
    // Account-level changes (accepting an invitation, leaving a portal, deleting oneself) touch
    // the person's other portals, whose locks may list them.
    if (request.routeOptions.config.access?.kind === 'account') {
      for (const membership of auth.memberships) link.scheduleSync(membership.portal.id);
    }
  });
  return link;
}

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

/**
 * Group commit of lock events (event-ingest.ts): what arrives within 10 ms joins one transaction of
 * at most 1,000 events. SQLite has one writer, so one transaction at a time (the next batch fills
 * meanwhile); PostgreSQL commits two at once on its pool (10 connections; the rest serve HTTP).
 * Fewer, larger transactions: with 2 ms and four at once, two servers sharing a fleet through
 * Mosquitto committed a few events per transaction and spent their time sending queries (2,900
 * events/s; 3,800–4,000 with these), and one server's p99 at 5,000 events/s was no better
 * (docs/benchmarks.md, "Scale-out through Mosquitto").
 */
const EVENT_INGEST = { windowMs: 10, maxEvents: 1000 };
const EVENT_COMMITS_IN_FLIGHT = { sqlite: 1, postgres: 2 } as const;

/**
 * Starts the device link (the embedded broker, or a client of MQTT_URL's broker). Credential sets
 * are recomputed for the locks each change to access says it touched (features/access/touched-locks.ts).
 */
export async function registerDeviceLink(app: FastifyInstance, config: Config): Promise<DeviceLink> {
  const transport = config.MQTT_URL
    ? new ExternalBroker(config.MQTT_URL, app.log, { waitSeconds: config.MQTT_WAIT_S })
    : new EmbeddedBroker(app.db, app.log, {
        port: config.MQTT_PORT,
        host: config.HOST,
        limits: {
          connectTimeoutMs: config.MQTT_CONNECT_TIMEOUT_S * 1000,
          maxConnectionsPerAddress: config.MQTT_MAX_CONNECTIONS_PER_IP,
          maxConnectionsByAddress: config.MQTT_CONNECTIONS_BY_IP,
          failedConnectsPerAddress: config.MQTT_FAILED_CONNECTS_PER_IP,
        },
      });
  const link = new DeviceLink(app.db, app.log, transport, {
    heartbeatSeconds: config.MQTT_HEARTBEAT_S,
    commandTtlSeconds: config.MQTT_COMMAND_TTL_S,
    signingKeys: new PortalSigningKeys(app.secrets.jwtKey),
    eventIngest: { ...EVENT_INGEST, concurrency: EVENT_COMMITS_IN_FLIGHT[app.dialect] },
  });
  await link.start();
  app.decorate('deviceLink', link);
  return link;
}

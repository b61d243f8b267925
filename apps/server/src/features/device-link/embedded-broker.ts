import crypto from 'node:crypto';
import net from 'node:net';
import {
  deviceTopic,
  LOCK_TOPICS,
  parseDeviceTopic,
  SERVER_TOPICS,
  type LockTopic,
  type ServerTopic,
} from '@latchkey/shared';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import { hashDeviceSecret } from '../devices/devices.service';
import { findLockById } from './device-link.repository';
import type { DeviceTransport, LockMessage } from './device-transport';

/** Start-up cannot go on: the embedded broker's port is not available. */
export class BrokerPortError extends Error {}

const DEFAULT_PORT = 1883;
const BAD_USERNAME_OR_PASSWORD = 4;

function refusal(message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: BAD_USERNAME_OR_PASSWORD });
}

function sameSecret(storedHash: string, password: Buffer): boolean {
  const given = Buffer.from(hashDeviceSecret(password.toString('utf8')));
  const stored = Buffer.from(storedHash);
  return given.length === stored.length && crypto.timingSafeEqual(given, stored);
}

function listen(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/**
 * The broker the server embeds when no MQTT_URL is set (aedes). A lock connects with its device id
 * as username and its device secret as password; it may publish only its own lock topics and
 * subscribe only its own server topics. The server publishes in-process.
 */
export class EmbeddedBroker implements DeviceTransport {
  url = '';
  private broker: Aedes | null = null;
  private server: net.Server | null = null;
  /** The lock each authenticated connection belongs to. */
  private readonly deviceOf = new WeakMap<Client, string>();
  private readonly connections = new Map<string, Set<Client>>();

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly options: { port: number | undefined; host: string },
  ) {}

  async start(handle: (message: LockMessage) => Promise<void>): Promise<void> {
    const broker = await Aedes.createBroker({
      authenticate: (client, username, password, done) => {
        void this.authenticate(client, username, password).then(
          (error) => done(error, error === null),
          (error: unknown) => {
            this.log.error({ err: error }, 'mqtt: authentication failed with an error');
            done(refusal('server error'), false);
          },
        );
      },
      authorizePublish: (client, packet, done) => {
        const deviceId = client ? this.deviceOf.get(client) : undefined;
        const parsed = parseDeviceTopic(packet.topic);
        const allowed =
          deviceId !== undefined &&
          parsed !== null &&
          parsed.deviceId === deviceId &&
          (LOCK_TOPICS as readonly string[]).includes(parsed.topic);
        if (allowed) return done(null);
        this.log.warn({ deviceId, topic: packet.topic }, 'mqtt: publish refused by the topic ACL');
        done(new Error('not authorized'));
      },
      authorizeSubscribe: (client, subscription, done) => {
        const deviceId = this.deviceOf.get(client);
        const allowed =
          deviceId !== undefined &&
          SERVER_TOPICS.some((topic) => subscription.topic === deviceTopic(deviceId, topic));
        if (allowed) return done(null, subscription);
        this.log.warn({ deviceId, topic: subscription.topic }, 'mqtt: subscription refused by the topic ACL');
        // A null subscription answers this one topic with a failure code; the connection stays.
        done(null, null);
      },
      published: (packet, client, done) => {
        // The server's own publications (client null) need no handling.
        const deviceId = client ? this.deviceOf.get(client) : undefined;
        const parsed = parseDeviceTopic(packet.topic);
        if (!deviceId || !parsed || parsed.deviceId !== deviceId) return done();
        handle({
          deviceId,
          topic: parsed.topic as LockTopic,
          payload: Buffer.from(packet.payload),
          otherLiveConnection: [...(this.connections.get(deviceId) ?? [])].some(
            (other) => other !== client && other.connected && !other.closed,
          ),
        }).then(
          () => done(),
          // The handler logs and drops bad payloads itself; this is a failure of the server (the
          // database went away). The error ends the lock's connection; it reconnects and resends
          // whatever events/ack has not named.
          (error: unknown) => {
            this.log.error({ err: error, deviceId, topic: packet.topic }, 'mqtt: could not handle a message');
            done(error as Error);
          },
        );
      },
    });
    broker.on('clientDisconnect', (client) => this.forget(client));
    broker.on('clientError', (client, error) =>
      this.log.debug({ deviceId: this.deviceOf.get(client), err: error }, 'mqtt: client error'),
    );
    this.broker = broker;

    const server = net.createServer(broker.handle);
    const { port, host } = this.options;
    try {
      await listen(server, port ?? DEFAULT_PORT, host);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      if (port !== undefined) {
        await this.closeBroker();
        throw new BrokerPortError(
          `MQTT_PORT ${port} is taken (another broker?); set MQTT_PORT to a free port, 0 for any, or MQTT_URL to use that broker`,
        );
      }
      this.log.warn(
        `mqtt: port ${DEFAULT_PORT} is taken (another broker?); the embedded broker takes a free port instead (set MQTT_PORT to choose one)`,
      );
      await listen(server, 0, host);
    }
    this.server = server;
    const address = server.address() as net.AddressInfo;
    this.url = `mqtt://${host === '0.0.0.0' ? 'localhost' : host}:${address.port}`;
    this.log.info({ url: this.url }, 'mqtt: embedded broker listening');
  }

  private async authenticate(
    client: Client,
    username: string | undefined,
    password: Buffer | undefined,
  ): Promise<AuthenticateError | null> {
    if (!username || !password) return refusal('device id and secret required');
    const device = await findLockById(this.db, username);
    if (!device || !sameSecret(device.secret_hash, password)) {
      this.log.warn({ deviceId: username }, 'mqtt: connection refused (unknown lock or wrong secret)');
      return refusal('unknown lock or wrong secret');
    }
    this.deviceOf.set(client, device.id);
    let set = this.connections.get(device.id);
    if (!set) this.connections.set(device.id, (set = new Set()));
    set.add(client);
    return null;
  }

  private forget(client: Client): void {
    const deviceId = this.deviceOf.get(client);
    if (!deviceId) return;
    const set = this.connections.get(deviceId);
    set?.delete(client);
    if (set?.size === 0) this.connections.delete(deviceId);
  }

  publish(
    deviceId: string,
    topic: ServerTopic,
    payload: string,
    options: { retain: boolean },
  ): Promise<void> {
    const broker = this.broker;
    if (!broker) return Promise.reject(new Error('the embedded broker is not running'));
    return new Promise((resolve, reject) => {
      broker.publish(
        {
          cmd: 'publish',
          topic: deviceTopic(deviceId, topic),
          payload,
          qos: 1,
          retain: options.retain,
          dup: false,
        },
        (error) => (error ? reject(error) : resolve()),
      );
    });
  }

  clearRetained(deviceId: string, topic: ServerTopic): Promise<void> {
    // An empty retained message removes the retained one (MQTT 3.1.1 §3.3.1.3).
    return this.publish(deviceId, topic, '', { retain: true });
  }

  disconnect(deviceId: string): void {
    for (const client of this.connections.get(deviceId) ?? []) client.close();
    this.connections.delete(deviceId);
  }

  private closeBroker(): Promise<void> {
    const broker = this.broker;
    this.broker = null;
    if (!broker) return Promise.resolve();
    return new Promise((resolve) => broker.close(() => resolve()));
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    // Closing the broker ends every client connection, which lets the server close.
    await this.closeBroker();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

import crypto from 'node:crypto';
import net from 'node:net';
import {
  DEVICE_MAX_CONNECT_BYTES,
  DEVICE_MAX_PACKET_BYTES,
  deviceTopic,
  LOCK_TOPICS,
  parseDeviceTopic,
  parseReaderTopic,
  READER_SERVER_TOPICS,
  READER_TOPICS,
  readerTopic,
  SERVER_TOPICS,
  type LockTopic,
  type ReaderServerTopic,
  type ReaderTopic,
  type ServerTopic,
} from '@latchkey/shared';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import { hashDeviceSecret } from '../devices/devices.service';
import { AddressGuard, PacketTooLargeError, SizeLimitedConnection } from './broker-guard';
import { findLockById } from './device-link.repository';
import {
  BrokerStartError,
  type DeviceTransport,
  type LockMessage,
  type ReaderGate,
} from './device-transport';
import { findRetainedByTopic } from './retained-by-topic';

const DEFAULT_PORT = 1883;
// CONNACK return codes (MQTT 3.1.1 §3.2.2.3).
const IDENTIFIER_REJECTED = 2;
const SERVER_UNAVAILABLE = 3;
const BAD_USERNAME_OR_PASSWORD = 4;
/** Room for a device id as client id under MQTT 3.1, whose spec says 23 characters. */
const MAX_CLIENT_ID_LENGTH = 64;
/**
 * Messages aedes delivers at once: no limit (0). With its default of 100, thousands of locks
 * publishing together keep more than that in delivery, and the rest wait in a queue that aedes
 * (mqemitter) drains recursively: the stack overflowed with 10,000 locks (bench/lock-events.bench.ts).
 * The limit bounds nothing else (waiting messages are held in memory either way); a client that
 * stops reading is dropped once its socket has not drained for 60 s (aedes's drainTimeout).
 */
export const BROKER_CONCURRENCY = 0;
/** Event messages of one connection handled at once before aedes waits for them (see `published`). */
const MAX_UNANSWERED_EVENT_MESSAGES = 16;

function refusal(message: string, returnCode = BAD_USERNAME_OR_PASSWORD): AuthenticateError {
  return Object.assign(new Error(message), { returnCode });
}

/** What the embedded broker admits before and after a login (config: MQTT_*). */
export interface BrokerLimits {
  /** A connection that has not sent its CONNECT by then is closed. */
  connectTimeoutMs: number;
  maxConnectionsPerAddress: number;
  /** Addresses with a limit of their own (MQTT_CONNECTIONS_BY_IP: a bridge's). */
  maxConnectionsByAddress?: Readonly<Record<string, number>>;
  /** Failed logins per address and minute; more are refused unchecked until the minute ends. */
  failedConnectsPerAddress: number;
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
 * as client id and username and its device secret as password; it may publish only its own lock
 * topics and subscribe only its own server topics. The server publishes in-process. Packets are
 * capped in size (the CONNECT more tightly), and each remote address in connections and failed
 * logins (broker-guard.ts).
 */
export class EmbeddedBroker implements DeviceTransport {
  url = '';
  private broker: Aedes | null = null;
  private server: net.Server | null = null;
  /** The lock each authenticated connection belongs to. */
  private readonly deviceOf = new WeakMap<Client, string>();
  private readonly connections = new Map<string, Set<Client>>();
  /** Event messages of each connection being stored while aedes already reads its next ones. */
  private readonly unansweredEvents = new WeakMap<Client, number>();
  /** The remote address of each connection, for the per-address limits. */
  private readonly addressOf = new WeakMap<Client, string>();
  /** Every open connection, logged in or not (closing the broker ends only logged-in ones). */
  private readonly sockets = new Set<net.Socket>();
  private readonly guard: AddressGuard;
  /** Enrollment readers (features/readers): who may log in as one, and where their messages go. */
  private readerGate: ReaderGate | null = null;
  /** The reader each authenticated reader connection belongs to (never also a lock's). */
  private readonly readerOf = new WeakMap<Client, string>();
  private readonly readerConnections = new Map<string, Set<Client>>();

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly options: { port: number | undefined; host: string; limits: BrokerLimits },
  ) {
    this.guard = new AddressGuard({
      maxConnections: options.limits.maxConnectionsPerAddress,
      ...(options.limits.maxConnectionsByAddress && {
        maxConnectionsByAddress: options.limits.maxConnectionsByAddress,
      }),
      failuresPerMinute: options.limits.failedConnectsPerAddress,
    });
  }

  async start(handle: (message: LockMessage) => Promise<void>): Promise<void> {
    const broker = await Aedes.createBroker({
      connectTimeout: this.options.limits.connectTimeoutMs,
      concurrency: BROKER_CONCURRENCY,
      maxClientsIdLength: MAX_CLIENT_ID_LENGTH,
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
        const readerId = client ? this.readerOf.get(client) : undefined;
        if (readerId !== undefined) {
          // A reader: only its own reader topics, never a lock's or another reader's.
          const topic = parseReaderTopic(packet.topic);
          const mine =
            topic !== null &&
            topic.readerId === readerId &&
            (READER_TOPICS as readonly string[]).includes(topic.topic);
          if (mine) return done(null);
          this.log.warn({ readerId, topic: packet.topic }, 'mqtt: reader publish refused by the topic ACL');
          return done(new Error('not authorized'));
        }
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
      // Only a lock's own server topics reach it, whatever a session holds (defence in depth: the
      // client id is bound to the lock at CONNECT).
      authorizeForward: (client, packet) => {
        const readerId = this.readerOf.get(client);
        if (readerId !== undefined)
          return parseReaderTopic(packet.topic)?.readerId === readerId ? packet : undefined;
        const parsed = parseDeviceTopic(packet.topic);
        return parsed !== null && parsed.deviceId === this.deviceOf.get(client) ? packet : undefined;
      },
      authorizeSubscribe: (client, subscription, done) => {
        const readerId = this.readerOf.get(client);
        if (readerId !== undefined) {
          const mine = READER_SERVER_TOPICS.some(
            (topic) => subscription.topic === readerTopic(readerId, topic),
          );
          if (mine) return done(null, subscription);
          this.log.warn(
            { readerId, topic: subscription.topic },
            'mqtt: reader subscription refused by the topic ACL',
          );
          return done(null, null);
        }
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
        const readerId = client ? this.readerOf.get(client) : undefined;
        const gate = this.readerGate;
        if (readerId !== undefined && gate) {
          const topic = parseReaderTopic(packet.topic);
          if (!topic || topic.readerId !== readerId) return done();
          gate
            .handle({
              readerId,
              topic: topic.topic as ReaderTopic,
              payload: Buffer.from(packet.payload),
              otherLiveConnection: [...(this.readerConnections.get(readerId) ?? [])].some(
                (other) => other !== client && other.connected && !other.closed,
              ),
            })
            .then(
              () => done(),
              (error: unknown) => {
                this.log.error(
                  { err: error, readerId, topic: packet.topic },
                  'mqtt: could not handle a reader message',
                );
                done(error as Error);
              },
            );
          return;
        }
        const deviceId = client ? this.deviceOf.get(client) : undefined;
        const parsed = parseDeviceTopic(packet.topic);
        if (!deviceId || !parsed || parsed.deviceId !== deviceId) return done();
        const handled = handle({
          deviceId,
          topic: parsed.topic as LockTopic,
          payload: Buffer.from(packet.payload),
          otherLiveConnection: [...(this.connections.get(deviceId) ?? [])].some(
            (other) => other !== client && other.connected && !other.closed,
          ),
        });
        // aedes reads no more from a connection until `done`. Events are acknowledged by events/ack
        // after their batch commits, not by this, so a lock's next events need not wait for that
        // commit: they join the next batch (with 1,000 locks keeping 5 in flight, waiting held
        // each lock to one batch at a time). Up to a bound, so a flooding lock is still held back.
        const unanswered = this.unansweredEvents.get(client!) ?? 0;
        const early = parsed.topic === 'events' && unanswered < MAX_UNANSWERED_EVENT_MESSAGES;
        if (early) {
          this.unansweredEvents.set(client!, unanswered + 1);
          done();
        }
        handled.then(
          () => {
            if (early) this.unansweredEvents.set(client!, (this.unansweredEvents.get(client!) ?? 1) - 1);
            else done();
          },
          // The handler logs and drops bad payloads itself; this is a failure of the server (the
          // database went away). The error ends the lock's connection; it reconnects and resends
          // whatever events/ack has not named.
          (error: unknown) => {
            this.log.error({ err: error, deviceId, topic: packet.topic }, 'mqtt: could not handle a message');
            if (early) client!.close();
            else done(error as Error);
          },
        );
      },
    });
    broker.on('clientDisconnect', (client) => this.forget(client));
    broker.on('clientError', (client, error) => {
      const deviceId = this.deviceOf.get(client);
      // A lock sending more than the protocol allows is worth a line; other errors are the network's.
      if (deviceId && error instanceof PacketTooLargeError) {
        this.log.warn({ deviceId, err: error }, 'mqtt: packet over the size limit; connection closed');
      } else this.log.debug({ deviceId, err: error }, 'mqtt: client error');
    });
    // Before a login (late, oversized or malformed CONNECTs): anyone can cause these, so not logged above debug.
    broker.on('connectionError', (client, error) =>
      this.log.debug({ address: this.addressOf.get(client), err: error }, 'mqtt: connection error'),
    );
    // Before any lock connects: retained credential sets found by topic, not by a scan of all.
    findRetainedByTopic((broker as unknown as { persistence: unknown }).persistence);
    this.broker = broker;

    const server = net.createServer((socket) => this.accept(socket, broker));
    const { port, host } = this.options;
    try {
      await listen(server, port ?? DEFAULT_PORT, host);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      if (port !== undefined) {
        await this.closeBroker();
        throw new BrokerStartError(
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

  /** A new TCP connection: counted against its address, and read through the packet size cap. */
  private accept(socket: net.Socket, broker: Aedes): void {
    const address = socket.remoteAddress ?? 'unknown';
    const admitted = this.guard.admit(address);
    if (admitted !== 'ok') {
      if (admitted === 'first') {
        this.log.warn(
          { address, limit: this.guard.limitFor(address) },
          'mqtt: address at its connection limit (MQTT_MAX_CONNECTIONS_PER_IP, or its own in MQTT_CONNECTIONS_BY_IP); further connections closed',
        );
      }
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.once('close', () => {
      this.sockets.delete(socket);
      this.guard.release(address);
    });
    const connection = new SizeLimitedConnection(socket, {
      connectBytes: DEVICE_MAX_CONNECT_BYTES,
      packetBytes: DEVICE_MAX_PACKET_BYTES,
    });
    this.addressOf.set(broker.handle(connection), address);
  }

  private async authenticate(
    client: Client,
    username: string | undefined,
    password: Buffer | undefined,
  ): Promise<AuthenticateError | null> {
    const address = this.addressOf.get(client) ?? 'unknown';
    // A blocked address is not even looked up: a flood costs neither queries nor log lines.
    if (await this.guard.blocked(address)) {
      this.log.debug({ address, deviceId: username }, 'mqtt: login refused unchecked (address blocked)');
      return refusal('too many failed logins from this address', SERVER_UNAVAILABLE);
    }
    if (!username || !password) return this.failedLogin(address, username, 'device id and secret required');
    const device = await findLockById(this.db, username);
    if (!device && this.readerGate) return this.authenticateReader(client, address, username, password);
    if (!device || !sameSecret(device.secret_hash, password)) {
      return this.failedLogin(address, username, 'unknown lock or wrong secret');
    }
    // The client id is the lock's own: another lock's would take over its session (its queued
    // credential sets and commands) and push the real lock off the broker.
    if (client.id !== device.id) {
      return this.failedLogin(address, username, 'client id is not the device id', IDENTIFIER_REJECTED);
    }
    this.deviceOf.set(client, device.id);
    let set = this.connections.get(device.id);
    if (!set) this.connections.set(device.id, (set = new Set()));
    set.add(client);
    return null;
  }

  /** A login that is no lock's: an enrollment reader's, on the same terms (features/readers). */
  private async authenticateReader(
    client: Client,
    address: string,
    username: string,
    password: Buffer,
  ): Promise<AuthenticateError | null> {
    const known = await this.readerGate!.authenticate(username, password.toString('utf8'));
    if (!known) return this.failedLogin(address, username, 'unknown lock or wrong secret');
    if (client.id !== username) {
      return this.failedLogin(address, username, 'client id is not the device id', IDENTIFIER_REJECTED);
    }
    this.readerOf.set(client, username);
    let set = this.readerConnections.get(username);
    if (!set) this.readerConnections.set(username, (set = new Set()));
    set.add(client);
    return null;
  }

  /** Counts a failed login against its address, logging the first of a minute and the block only. */
  private async failedLogin(
    address: string,
    deviceId: string | undefined,
    reason: string,
    returnCode = BAD_USERNAME_OR_PASSWORD,
  ): Promise<AuthenticateError> {
    const notice = await this.guard.failed(address);
    const context = { address, deviceId, reason };
    if (notice === 'blocking') {
      this.log.warn(
        { ...context, limit: this.options.limits.failedConnectsPerAddress },
        'mqtt: too many failed logins from this address; refusing its logins for up to a minute',
      );
    } else if (notice === 'first') this.log.warn(context, 'mqtt: connection refused');
    else this.log.debug(context, 'mqtt: connection refused');
    return refusal(reason, returnCode);
  }

  private forget(client: Client): void {
    const readerId = this.readerOf.get(client);
    if (readerId !== undefined) {
      const readers = this.readerConnections.get(readerId);
      readers?.delete(client);
      if (readers?.size === 0) this.readerConnections.delete(readerId);
      return;
    }
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

  attachReaders(gate: ReaderGate): void {
    this.readerGate = gate;
  }

  publishToReader(readerId: string, topic: ReaderServerTopic, payload: string): Promise<void> {
    const broker = this.broker;
    if (!broker) return Promise.reject(new Error('the embedded broker is not running'));
    return new Promise((resolve, reject) => {
      broker.publish(
        { cmd: 'publish', topic: readerTopic(readerId, topic), payload, qos: 1, retain: false, dup: false },
        (error) => (error ? reject(error) : resolve()),
      );
    });
  }

  disconnectReader(readerId: string): void {
    for (const client of this.readerConnections.get(readerId) ?? []) client.close();
    this.readerConnections.delete(readerId);
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
    // Closing the broker ends every logged-in connection; the rest are ended here, so the server
    // can close without waiting for their CONNECT timeout.
    await this.closeBroker();
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

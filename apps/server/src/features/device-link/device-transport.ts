import type { LockTopic, ReaderServerTopic, ReaderTopic, ServerTopic } from '@latchkey/shared';

/** Start-up cannot go on: the broker's port is taken, or MQTT_URL's broker cannot be reached or refuses the server. */
export class BrokerStartError extends Error {}

/** What a transport hands the device link: a message a lock published on one of its own topics. */
export interface LockMessage {
  deviceId: string;
  topic: LockTopic;
  payload: Buffer;
  /**
   * The lock has another live connection than the one this came from (a reconnect overtook it), so
   * a last will arriving now is stale. Known only to an embedded broker.
   */
  otherLiveConnection?: boolean;
}

/** A message an enrollment reader published on one of its own topics (features/readers). */
export interface ReaderMessage {
  readerId: string;
  topic: ReaderTopic;
  payload: Buffer;
  /** As LockMessage's: the reader has another live connection, so a last will now is stale. */
  otherLiveConnection?: boolean;
}

/**
 * Enrollment readers on the same broker as locks (docs/device-protocol.md §7): the readers feature
 * says who may log in as a reader and takes their messages; the broker applies the same rules as to
 * a lock (client id = reader id, only its own topics).
 */
export interface ReaderGate {
  /** Whether `readerId` exists and `secret` is its secret. */
  authenticate(readerId: string, secret: string): Promise<boolean>;
  handle(message: ReaderMessage): Promise<void>;
}

/**
 * How the server reaches locks: an embedded broker (default) or a client of an external broker
 * (MQTT_URL). The device link's rules do not depend on which.
 */
export interface DeviceTransport {
  /** Where locks connect, for the log and tests (mqtt://host:port). */
  readonly url: string;
  /**
   * Starts delivering lock messages to `handle`. A PUBACK may precede `handle` (aedes acknowledges
   * QoS 1 before delivering), so durability comes from the protocol's own acks: a lock keeps an
   * event until events/ack names it, and republishes its status.
   */
  start(handle: (message: LockMessage) => Promise<void>): Promise<void>;
  /** Publishes to a lock's server topic with QoS 1. */
  publish(deviceId: string, topic: ServerTopic, payload: string, options: { retain: boolean }): Promise<void>;
  /** Clears a retained message (a deleted lock's credential set). */
  clearRetained(deviceId: string, topic: ServerTopic): Promise<void>;
  /**
   * Lets enrollment readers log in and hands their messages to `gate`; absent where the transport
   * cannot (an external broker: its logins are Mosquitto's files).
   */
  attachReaders?(gate: ReaderGate): void;
  /** Publishes to a reader's server topic with QoS 1 (not retained). */
  publishToReader?(readerId: string, topic: ReaderServerTopic, payload: string): Promise<void>;
  /** Ends a reader's connections now (a deleted reader). */
  disconnectReader?(readerId: string): void;
  /** Ends a lock's connections now, if this transport can (an external broker cannot). */
  disconnect(deviceId: string): void;
  close(): Promise<void>;
}

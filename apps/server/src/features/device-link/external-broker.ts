import crypto from 'node:crypto';
import {
  deviceTopic,
  DEVICE_TOPIC_ROOT,
  LOCK_TOPICS,
  parseDeviceTopic,
  type ServerTopic,
} from '@latchkey/shared';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { BrokerStartError, type DeviceTransport, type LockMessage } from './device-transport';

/** Every server process joins this group, so each lock message reaches exactly one of them. */
export const SHARED_SUBSCRIPTION_GROUP = 'latchkey';

/** `$share/latchkey/lk/v1/+/{topic}` for each topic a lock publishes. */
export function sharedLockSubscriptions(): string[] {
  return LOCK_TOPICS.map((topic) => `$share/${SHARED_SUBSCRIPTION_GROUP}/${DEVICE_TOPIC_ROOT}/+/${topic}`);
}

/**
 * How many messages the broker may have on their way to one server before that server has
 * acknowledged them: MQTT 5's Receive Maximum, which Mosquitto applies to this client alone (its
 * `max_inflight_messages`, 20 by default, then applies only to the locks). A fleet's events all
 * funnel into the servers' few connections: 500 locks with 5 events each in flight are 2,500
 * messages at once, and past 20 in flight plus Mosquitto's queue of 1,000 it drops the rest
 * ("Outgoing messages are being dropped"), so locks had to resend after 5 s. The largest value MQTT
 * allows; the queue behind it (`max_queued_messages`, from the exported configuration) adds to it.
 */
export const SERVER_RECEIVE_MAXIMUM = 65_535;

/** How long a server waits between two tries at reaching MQTT_URL's broker at start-up, at most. */
const MAX_RETRY_DELAY_MS = 10_000;

/** CONNACK codes that mean the broker will not take this login however often it is tried. */
const LOGIN_REFUSED = new Set([
  4, // MQTT 3.1.1: bad user name or password
  5, // MQTT 3.1.1: not authorised
  134, // MQTT 5: bad user name or password
  135, // MQTT 5: not authorised
  138, // MQTT 5: banned
]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The broker URL without its password, for the log. */
function redacted(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/**
 * The device link over an external broker (MQTT_URL, e.g. Mosquitto): the server is one more MQTT
 * 5 client, and several servers share the lock topics through a shared subscription. The broker
 * itself authenticates locks and enforces the topic ACL (`npm run mqtt:export` writes its files).
 */
export class ExternalBroker implements DeviceTransport {
  readonly url: string;
  private client: MqttClient | null = null;

  /** `waitSeconds`: how long start-up waits for the broker to answer before it gives up (MQTT_WAIT_S). */
  constructor(
    private readonly brokerUrl: string,
    private readonly log: FastifyBaseLogger,
    private readonly options: { waitSeconds: number } = { waitSeconds: 60 },
  ) {
    this.url = redacted(brokerUrl);
  }

  /**
   * Connects to MQTT_URL's broker, trying again with back-off while it does not answer (a first
   * deployment may start the servers before Mosquitto), and saying what it waits for. A broker that
   * refuses the server's login is not waited for: that is a configuration to fix.
   */
  private async connectWhenReady(): Promise<MqttClient> {
    const deadline = Date.now() + this.options.waitSeconds * 1000;
    let delay = 500;
    for (let attempt = 1; ; attempt++) {
      try {
        return await mqtt.connectAsync(
          this.brokerUrl,
          {
            protocolVersion: 5,
            clientId: `latchkey-server-${crypto.randomUUID()}`,
            // Locks resend what was not acknowledged, so a server needs no broker-side session.
            clean: true,
            reconnectPeriod: 1000,
            connectTimeout: 10_000,
            properties: { receiveMaximum: SERVER_RECEIVE_MAXIMUM },
          },
          false,
        );
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        const reason = (error as Error).message;
        if (typeof code === 'number' && LOGIN_REFUSED.has(code)) {
          throw new BrokerStartError(
            `MQTT_URL: the broker at ${this.url} refused the server's login (${reason}); MQTT_URL's user and password must be the servers' account in the files npm run mqtt:export writes`,
          );
        }
        const waitMs = Math.min(delay, deadline - Date.now());
        if (waitMs <= 0) {
          throw new BrokerStartError(
            `MQTT_URL: no MQTT broker answered at ${this.url} within ${this.options.waitSeconds} s (${reason}); start the broker first (README, "Scale-out"), or wait longer with MQTT_WAIT_S`,
          );
        }
        this.log.warn(
          { url: this.url, attempt, retryInMs: waitMs },
          `mqtt: waiting for the broker at MQTT_URL ${this.url} (${reason}); trying again in ${(waitMs / 1000).toFixed(1)} s`,
        );
        await sleep(waitMs);
        delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
      }
    }
  }

  async start(handle: (message: LockMessage) => Promise<void>): Promise<void> {
    const client = await this.connectWhenReady();
    client.on('error', (error) => this.log.error({ err: error }, 'mqtt: broker connection error'));
    client.on('offline', () => this.log.warn({ url: this.url }, 'mqtt: broker unreachable; reconnecting'));
    client.on('message', (topic, payload) => {
      const parsed = parseDeviceTopic(topic);
      if (!parsed || !(LOCK_TOPICS as readonly string[]).includes(parsed.topic)) return;
      handle({ deviceId: parsed.deviceId, topic: parsed.topic as LockMessage['topic'], payload }).catch(
        (error: unknown) => this.log.error({ err: error, topic }, 'mqtt: could not handle a message'),
      );
    });
    const granted = await client.subscribeAsync(sharedLockSubscriptions(), { qos: 1 });
    const refused = granted.filter((g) => g.qos > 2);
    if (refused.length > 0) {
      await client.endAsync(true);
      throw new BrokerStartError(
        `MQTT_URL: the broker refused ${refused.map((g) => g.topic).join(', ')}; the server's account needs read access to ${DEVICE_TOPIC_ROOT}/# (see npm run mqtt:export)`,
      );
    }
    this.client = client;
    this.log.info({ url: this.url }, 'mqtt: connected to the external broker');
  }

  async publish(deviceId: string, topic: ServerTopic, payload: string, options: { retain: boolean }) {
    if (!this.client) throw new Error('not connected to the broker');
    await this.client.publishAsync(deviceTopic(deviceId, topic), payload, { qos: 1, retain: options.retain });
  }

  clearRetained(deviceId: string, topic: ServerTopic): Promise<void> {
    return this.publish(deviceId, topic, '', { retain: true });
  }

  disconnect(deviceId: string): void {
    // The broker owns lock connections. A deleted lock leaves the password file at the next export,
    // and Mosquitto disconnects it when it reloads that file: `npm run mqtt:export -- --watch`
    // (and npm run cluster) does both within its period, with no one in the loop.
    this.log.info(
      { deviceId },
      'mqtt: deleted lock stays connected until the broker reloads its password file (mqtt:export --watch does so within seconds)',
    );
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.endAsync();
  }
}

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
import type { DeviceTransport, LockMessage } from './device-transport';

/** Every server process joins this group, so each lock message reaches exactly one of them. */
export const SHARED_SUBSCRIPTION_GROUP = 'latchkey';

/** `$share/latchkey/lk/v1/+/{topic}` for each topic a lock publishes. */
export function sharedLockSubscriptions(): string[] {
  return LOCK_TOPICS.map((topic) => `$share/${SHARED_SUBSCRIPTION_GROUP}/${DEVICE_TOPIC_ROOT}/+/${topic}`);
}

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

  constructor(
    private readonly brokerUrl: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.url = redacted(brokerUrl);
  }

  async start(handle: (message: LockMessage) => Promise<void>): Promise<void> {
    const client = await mqtt.connectAsync(this.brokerUrl, {
      protocolVersion: 5,
      clientId: `latchkey-server-${crypto.randomUUID()}`,
      // Locks resend what was not acknowledged, so a server needs no broker-side session.
      clean: true,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
    });
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
      throw new Error(
        `the broker refused ${refused.map((g) => g.topic).join(', ')}; the server's account needs read access to ${DEVICE_TOPIC_ROOT}/# (see npm run mqtt:export)`,
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
    // The broker owns lock connections; a deleted lock is refused once the exported password file
    // no longer lists it (run npm run mqtt:export and reload the broker).
    this.log.info(
      { deviceId },
      'mqtt: deleted lock stays connected until the broker reloads its password file',
    );
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.endAsync();
  }
}

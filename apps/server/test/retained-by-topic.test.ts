import net from 'node:net';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRetainedByTopic } from '../src/features/device-link/retained-by-topic';

/**
 * Retained messages found by topic (the embedded broker's store): a subscriber gets exactly what a
 * stock aedes gives it, for exact topics (the fast path), wildcards (the stock scan) and cleared
 * topics, with real MQTT clients on a real aedes broker.
 */

let broker: Aedes;
let server: net.Server;
let url: string;
const clients: MqttClient[] = [];

beforeAll(async () => {
  broker = await Aedes.createBroker();
  findRetainedByTopic((broker as unknown as { persistence: unknown }).persistence);
  server = net.createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.endAsync(true)));
  await new Promise((resolve) => server.close(resolve));
  await new Promise<void>((resolve) => broker.close(() => resolve()));
});

async function connect() {
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0 });
  clients.push(client);
  return client;
}

/** What a new subscriber to `topics` receives as retained, once a marker published after it arrives. */
async function retainedFor(topics: string[]) {
  const client = await connect();
  const received: string[] = [];
  const marker = `marker/${Math.random()}`;
  const done = new Promise<void>((resolve) =>
    client.on('message', (topic, payload, packet) => {
      if (topic === marker) resolve();
      else if (packet.retain) received.push(`${topic}=${payload.toString()}`);
    }),
  );
  await client.subscribeAsync([...topics, marker], { qos: 1 });
  await client.publishAsync(marker, 'x', { qos: 1 });
  await done;
  return received.sort();
}

describe('retained messages by topic', () => {
  it('gives a subscriber the retained message of each exact topic, the newest, and none once cleared', async () => {
    const publisher = await connect();
    await publisher.publishAsync('lk/v1/a/credentials', 'a1', { qos: 1, retain: true });
    await publisher.publishAsync('lk/v1/a/credentials', 'a2', { qos: 1, retain: true });
    await publisher.publishAsync('lk/v1/b/credentials', 'b1', { qos: 1, retain: true });
    await publisher.publishAsync('lk/v1/c/credentials', 'c1', { qos: 1, retain: true });
    expect(await retainedFor(['lk/v1/a/credentials', 'lk/v1/b/credentials', 'lk/v1/a/commands'])).toEqual([
      'lk/v1/a/credentials=a2',
      'lk/v1/b/credentials=b1',
    ]);
    // A pattern still finds every match.
    expect(await retainedFor(['lk/v1/+/credentials'])).toEqual([
      'lk/v1/a/credentials=a2',
      'lk/v1/b/credentials=b1',
      'lk/v1/c/credentials=c1',
    ]);
    // An empty retained message clears the topic, for exact topics and patterns alike.
    await publisher.publishAsync('lk/v1/b/credentials', '', { qos: 1, retain: true });
    expect(await retainedFor(['lk/v1/b/credentials'])).toEqual([]);
    expect(await retainedFor(['lk/v1/#'])).toEqual(['lk/v1/a/credentials=a2', 'lk/v1/c/credentials=c1']);
  });
});

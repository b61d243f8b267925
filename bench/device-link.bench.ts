/**
 * npm run bench (device link): lock events end to end (lock → broker → server → database →
 * WebSocket) as events per second and p50/p99 latency, each as a ratio to a bare publish/subscribe
 * through the same kind of broker (aedes) on this machine (grant changes: bench/grant-change.bench.ts).
 * Not a test: it prints figures; docs/benchmarks.md records a run.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Aedes } from 'aedes';
import { connectAsync, type MqttClient } from 'mqtt';
import WebSocket from 'ws';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { createDemoAccount } from '../apps/server/src/features/auth/accounts';
import { issueSessionToken } from '../apps/server/src/base/identity/sessions';
import { createDevice } from '../apps/server/src/features/devices/devices.service';
import { findPortalOwnedBy } from '../apps/server/src/base/tenancy/portals.repository';

const EVENTS = 2000;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Run {
  perSecond: number;
  p50: number;
  p99: number;
}

/** Publishes `count` QoS 1 messages, each stamped with its send time; `received` resolves per id. */
async function measure(
  publish: (id: string, sentAt: number) => Promise<void>,
  arrivals: Map<string, number>,
  count: number,
): Promise<Run> {
  const sentAt = new Map<string, number>();
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const id = `m-${i}-${Math.random().toString(36).slice(2, 8)}`;
    const now = performance.now();
    sentAt.set(id, now);
    await publish(id, now);
  }
  const deadline = Date.now() + 120_000;
  while (arrivals.size < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const elapsed = Math.max(...arrivals.values()) - started;
  const latencies = [...sentAt].map(([id, sent]) => (arrivals.get(id) ?? Infinity) - sent);
  return {
    perSecond: (count / elapsed) * 1000,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** The bare stack: one client publishes to a broker, another subscribes. */
async function bareBroker(): Promise<Run> {
  const broker = await Aedes.createBroker();
  const server = net.createServer(broker.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const subscriber = await connectAsync(url);
  const publisher = await connectAsync(url);
  const arrivals = new Map<string, number>();
  subscriber.on('message', (_topic, payload) =>
    arrivals.set(JSON.parse(payload.toString()).id, performance.now()),
  );
  await subscriber.subscribeAsync('bench/#', { qos: 1 });
  const run = await measure(
    (id) => publisher.publishAsync('bench/events', JSON.stringify({ id }), { qos: 1 }).then(() => undefined),
    arrivals,
    EVENTS,
  );
  await Promise.all([subscriber.endAsync(), publisher.endAsync()]);
  await new Promise<void>((resolve) => broker.close(() => resolve()));
  server.close();
  return run;
}

async function main() {
  const bare = await bareBroker();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-bench-link-'));
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      DEMO_DATA: 'false',
      MQTT_PORT: '0',
      MAIL_POLL_MS: '0',
    }),
  );
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const owner = await createDemoAccount(app.db, {
      email: 'bench@example.com',
      password: 'a sturdy passphrase',
      firstName: 'Bench',
      lastName: 'Owner',
      portalName: 'Bench',
    });
    const portalId = (await findPortalOwnedBy(app.db, owner.id))!.id;
    const context = { portalId, actorUserId: owner.id, ip: '127.0.0.1' };
    const { token } = await issueSessionToken(app.secrets.jwtKey, owner, 1);

    // End to end: one lock's events until they reach a browser's socket.
    const { device, deviceSecret } = await createDevice(app.db, context, {
      name: 'Bench door',
      model: 'latchkey-sim',
      timeZone: 'UTC',
    });
    const port = (app.server.address() as net.AddressInfo).port;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api3/live`);
    const arrivals = new Map<string, number>();
    let subscribed!: () => void;
    const ready = new Promise<void>((resolve) => (subscribed = resolve));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'ready') socket.send(JSON.stringify({ type: 'subscribe', portalId }));
      if (message.type === 'subscribed') subscribed();
      if (message.type === 'device.event') arrivals.set(message.event.eventId, performance.now());
    });
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'auth', token }));
    await ready;
    const lock: MqttClient = await connectAsync(app.deviceLink.transport.url, {
      clientId: device._id,
      username: device._id,
      password: deviceSecret,
    });
    const topic = `lk/v1/${device._id}/events`;
    const endToEnd = await measure(
      (id) =>
        lock
          .publishAsync(
            topic,
            JSON.stringify({ eventId: id, ts: new Date().toISOString(), type: 'lock', method: 'manual' }),
            { qos: 1 },
          )
          .then(() => undefined),
      arrivals,
      EVENTS,
    );
    await lock.endAsync();
    socket.close();

    const ratio = (a: number, b: number) => (a / b).toFixed(1);
    console.log(`\nDevice link (${EVENTS} events, QoS 1, one lock; SQLite)`);
    console.table({
      'bare broker publish → subscribe': {
        'events/s': Math.round(bare.perSecond),
        'p50 ms': bare.p50.toFixed(2),
        'p99 ms': bare.p99.toFixed(2),
      },
      'lock → broker → server → database → WebSocket': {
        'events/s': Math.round(endToEnd.perSecond),
        'p50 ms': endToEnd.p50.toFixed(2),
        'p99 ms': endToEnd.p99.toFixed(2),
      },
    });
    console.log(
      `ratios end to end / bare: throughput ${ratio(bare.perSecond, endToEnd.perSecond)}× lower, ` +
        `p50 ${ratio(endToEnd.p50, bare.p50)}×, p99 ${ratio(endToEnd.p99, bare.p99)}×`,
    );
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();

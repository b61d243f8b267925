/**
 * npm run bench:scale-out: lock events per second through the scale-out set (npm run cluster: a
 * Mosquitto configured from the export, two servers, PostgreSQL, Redis) against the same Mosquitto
 * with the same fleet, where bare echo clients in the servers' shared subscription acknowledge each
 * event at once. Both runs count Mosquitto's dropped-message warnings and the events the locks had
 * to resend (device protocol v1: after 5 s without an ack). Target: the set reaches ≥ 0.7 of the
 * bare broker's events/s, both without drops.
 *
 *   BENCH_DATABASE_URL=postgres://…   required (a fresh database is made from it and dropped)
 *   BENCH_REDIS_URL=redis://…         default redis://127.0.0.1:6379
 *   SCALE_OUT_LOCKS=1000              the fleet
 *   SCALE_OUT_EVENTS=20               events per lock
 *   SCALE_OUT_IN_FLIGHT=5             events each lock keeps awaiting their ack
 *   SCALE_OUT_SERVERS=2
 *
 * Not a test: it prints figures; docs/benchmarks.md records runs.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { floodEvents, type EventFloodResult } from '@latchkey/locksim';
import mqtt from 'mqtt';
import { freePorts, startCluster, startMosquitto, stopChild } from '../apps/server/src/cluster/cluster';
import { openDatabase } from '../apps/server/src/db/database';
import { seedLockFleet } from '../apps/server/src/demo/seed-lock-fleet';
import {
  SERVER_RECEIVE_MAXIMUM,
  sharedLockSubscriptions,
} from '../apps/server/src/features/device-link/external-broker';
import { benchDatabase } from './bench-database';

const LOCKS = Number(process.env.SCALE_OUT_LOCKS ?? 1000);
const EVENTS = Number(process.env.SCALE_OUT_EVENTS ?? 20);
const IN_FLIGHT = Number(process.env.SCALE_OUT_IN_FLIGHT ?? 5);
const SERVERS = Number(process.env.SCALE_OUT_SERVERS ?? 2);
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MOSQUITTO = '/usr/sbin/mosquitto';

/** The bare side: clients in the servers' shared subscription that acknowledge each event at once. */
async function echoClients(mqttUrl: string, count: number) {
  const clients = await Promise.all(
    Array.from({ length: count }, async () => {
      const client = await mqtt.connectAsync(mqttUrl, {
        protocolVersion: 5,
        clientId: `bench-echo-${crypto.randomUUID()}`,
        clean: true,
        properties: { receiveMaximum: SERVER_RECEIVE_MAXIMUM },
      });
      client.on('message', (topic, payload) => {
        const deviceId = topic.split('/')[2]!;
        const body = JSON.parse(payload.toString()) as { eventId: string } | { eventId: string }[];
        const eventIds = (Array.isArray(body) ? body : [body]).map((event) => event.eventId);
        client.publish(`lk/v1/${deviceId}/events/ack`, JSON.stringify({ eventIds }), { qos: 1 });
      });
      await client.subscribeAsync(sharedLockSubscriptions(), { qos: 1 });
      return client;
    }),
  );
  return () => Promise.all(clients.map((client) => client.endAsync(true)));
}

function line(label: string, result: EventFloodResult, drops: number) {
  return `${label.padEnd(34)} ${Math.round(result.eventsPerSecond).toString().padStart(6)} events/s  slowest ack ${result.slowestAckMs} ms  resent ${result.resent}  unacknowledged ${result.unacknowledged}  Mosquitto drop warnings ${drops}`;
}

async function main() {
  if (!process.env.BENCH_DATABASE_URL) {
    console.error(
      'bench:scale-out needs PostgreSQL: BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres',
    );
    process.exit(2);
  }
  const database = await benchDatabase('scaleout');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-bench-scale-out-'));
  const [lockPort, serverMqttPort, ...serverPorts] = await freePorts(2 + SERVERS);
  const ports = { lockPort: lockPort!, serverMqttPort: serverMqttPort! };
  try {
    const cluster = await startCluster({
      serverPorts,
      host: '127.0.0.1',
      ...ports,
      lockAddress: '127.0.0.1',
      dir,
      databaseUrl: database.url!,
      redisUrl: REDIS_URL,
      mosquittoPath: MOSQUITTO,
      demoLocks: false,
      exportEveryMs: 500,
      env: { ...process.env, DEMO_DATA: 'false', LOG_LEVEL: 'warn', PLAN_LOCK_LIMITS: 'false' },
      output: (source, text) => {
        if (source !== 'mosquitto' && source !== 'export') console.log(`[${source}] ${text}`);
      },
    });
    const { db } = openDatabase({ databaseUrl: database.url!, dataDir: dir });
    const { locks } = await seedLockFleet(db, LOCKS, 'Bench');
    await db.destroy();
    // The set's export watcher admits the fleet to Mosquitto.
    const passwd = path.join(dir, 'passwd');
    while (fs.readFileSync(passwd, 'utf8').split('\n').filter(Boolean).length < LOCKS) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const flood = () =>
      floodEvents({ url: cluster.lockUrl, locks, eventsPerLock: EVENTS, inFlight: IN_FLIGHT });
    const dropsIn = (log: string[], from: number) =>
      log.slice(from).filter((l) => l.includes('dropped')).length;
    const before = cluster.mosquittoLog.length;
    const throughSet = await flood();
    const setDrops = dropsIn(cluster.mosquittoLog, before);
    const mqttUrl = cluster.mqttUrl;
    await cluster.stop();

    // The same broker, files and fleet; echo clients where the servers were.
    const mosquitto = await startMosquitto({
      dir,
      ...ports,
      lockAddress: '127.0.0.1',
      mosquittoPath: MOSQUITTO,
      output: () => {},
    });
    const stopEcho = await echoClients(mqttUrl, SERVERS);
    const bare = await flood();
    const bareDrops = dropsIn(mosquitto.log, 0);
    await stopEcho();
    await stopChild(mosquitto.process);

    console.log(
      [
        '',
        `Scale-out set: ${LOCKS} locks × ${EVENTS} events, ${IN_FLIGHT} in flight per lock, through Mosquitto (${os.cpus().length} cores)`,
        line(`${SERVERS} servers (PostgreSQL, Redis)`, throughSet, setDrops),
        line(`bare: ${SERVERS} echo clients`, bare, bareDrops),
        `ratio ${(throughSet.eventsPerSecond / bare.eventsPerSecond).toFixed(2)} (target ≥ 0.70, both without drops)`,
      ].join('\n'),
    );
  } finally {
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

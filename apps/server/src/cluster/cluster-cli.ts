import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { startCluster } from './cluster';

const USAGE = `usage: npm run cluster -- [options]

Starts the scale-out set on this machine: a private Mosquitto (configured as npm run mqtt:export
prints, and kept in step with the database), and several servers sharing DATABASE_URL
(PostgreSQL), REDIS_URL and the broker. Ctrl-C stops everything.

  --servers <n>          how many servers (default 2)
  --port <port>          the first server's HTTP port; the others follow (default PORT, or 3000)
  --lock-port <port>     Mosquitto's listener for locks (default 1883)
  --lock-address <addr>  bind the locks' listener to this address only (default: every interface)
  --server-mqtt-port <p> Mosquitto's listener for the servers, on 127.0.0.1 (default lock port + 1)
  --dir <dir>            where the set keeps its files (default DATA_DIR/cluster)
  --mosquitto <path>     the Mosquitto binary (default /usr/sbin/mosquitto)
  --no-demo-locks        do not play the demo portal's locks
  -h, --help             this text`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function intOption(value: string | undefined, name: string, fallback: number, min: number, max: number) {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) fail(`${name} must be ${min}–${max}`);
  return number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      servers: { type: 'string' },
      port: { type: 'string' },
      'lock-port': { type: 'string' },
      'lock-address': { type: 'string' },
      'server-mqtt-port': { type: 'string' },
      dir: { type: 'string' },
      mosquitto: { type: 'string' },
      'no-demo-locks': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    fail(
      'the servers of a set share one PostgreSQL database: set DATABASE_URL=postgres://user@host:5432/name (the database must exist; npm run cluster migrates it)',
    );
  }
  if (!config.REDIS_URL) {
    fail(
      'the servers of a set share the live channel and rate limits through Redis: set REDIS_URL=redis://host:6379',
    );
  }
  if (config.MQTT_URL)
    fail('MQTT_URL is set: npm run cluster starts its own Mosquitto and sets MQTT_URL for its servers');
  const mosquittoPath = values.mosquitto ?? '/usr/sbin/mosquitto';
  if (!fs.existsSync(mosquittoPath)) {
    fail(`no Mosquitto at ${mosquittoPath}: apt-get install -y mosquitto, or --mosquitto <path>`);
  }
  const lockPort = intOption(values['lock-port'], '--lock-port', 1883, 1, 65535);
  const servers = intOption(values.servers, '--servers', 2, 1, 32);
  const firstPort = intOption(values.port, '--port', config.PORT, 1, 65535 - servers);
  const options = {
    serverPorts: Array.from({ length: servers }, (_, i) => firstPort + i),
    host: config.HOST,
    lockPort,
    ...(values['lock-address'] && { lockAddress: values['lock-address'] }),
    serverMqttPort: intOption(values['server-mqtt-port'], '--server-mqtt-port', lockPort + 1, 1, 65535),
    dir: path.resolve(values.dir ?? path.join(config.DATA_DIR, 'cluster')),
    databaseUrl: config.DATABASE_URL,
    redisUrl: config.REDIS_URL,
    mosquittoPath,
    demoLocks: !values['no-demo-locks'],
    exportEveryMs: 5000,
    env: process.env,
    output: (source: string, line: string) => console.log(`[${source}] ${line}`),
  };
  // Ctrl-C while the set starts stops what has started; once it runs, it stops the whole set.
  const starting = new AbortController();
  let cluster: Awaited<ReturnType<typeof startCluster>> | null = null;
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    console.log('stopping the set…');
    if (!cluster) return starting.abort();
    cluster.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  console.log(`starting ${servers} servers and Mosquitto; files in ${options.dir}`);
  try {
    cluster = await startCluster({ ...options, signal: starting.signal });
  } catch (error) {
    if (starting.signal.aborted) process.exit(1);
    throw error;
  }
  const redactedMqtt = cluster.mqttUrl.replace(/:[^:@/]+@/, ':***@');
  console.log(
    [
      '',
      'The scale-out set is running:',
      ...cluster.servers.map((server) => `  ${server.name}  ${server.url}  (pid ${server.pid})`),
      `  locks      ${cluster.lockUrl}  (Mosquitto's locks' listener; pid ${cluster.mosquittoPid})`,
      `  servers' MQTT_URL  ${redactedMqtt}  (password in ${path.join(options.dir, 'cluster.json')})`,
      `  database   ${config.DATABASE_URL.replace(/:[^:@/]+@/, ':***@')}`,
      `  Redis      ${config.REDIS_URL}`,
      `  demo locks ${cluster.demoLocks ? `${cluster.demoLocks} simulated, on the locks' listener` : 'none'}`,
      'Every server is a whole portal: sign in on any of them (put a load balancer in front for one address). A lock added or deleted reaches Mosquitto within 5 s. Ctrl-C stops everything.',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

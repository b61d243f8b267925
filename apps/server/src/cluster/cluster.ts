import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { encodeBase64 } from '@latchkey/shared';
import type { LockFleet } from '@latchkey/locksim';
import pino from 'pino';
import { openDatabase, type Database } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { startDemoLocks } from '../demo/demo-locks';
import {
  exportMosquittoFiles,
  mosquittoConf,
  reloadMosquitto,
  watchMosquittoFiles,
} from '../features/device-link/mosquitto-export';

/**
 * The scale-out set on one machine (`npm run cluster`): a private Mosquitto configured from the
 * export, the export kept in step with the database (a lock added or deleted in the portal reaches
 * Mosquitto within `exportEveryMs`), and N servers sharing PostgreSQL, Redis, the broker and the
 * secrets, each on its own HTTP port. It follows the order a first deployment on separate machines
 * follows (README, "Scale-out"): migrate, export, start the broker, start the servers.
 */
export interface ClusterOptions {
  /** One HTTP port per server. */
  serverPorts: number[];
  host: string;
  /** Mosquitto's listener for locks (every interface unless lockAddress). */
  lockPort: number;
  lockAddress?: string;
  /** Mosquitto's listener for the servers (MQTT_URL), on 127.0.0.1. */
  serverMqttPort: number;
  /** Everything the set writes: mosquitto.conf, the exported files, cluster.json (the shared secrets), data/. */
  dir: string;
  databaseUrl: string;
  redisUrl: string;
  mosquittoPath: string;
  /** Play the demo portal's locks against the locks' listener (when a server made the demo). */
  demoLocks: boolean;
  exportEveryMs: number;
  /** The servers' environment (the rest of the configuration: LOG_LEVEL, SMTP_URL, …). */
  env: NodeJS.ProcessEnv;
  /** Each line the broker and the servers print, with where it came from. */
  output: (source: string, line: string) => void;
  /** Aborted while the set starts (Ctrl-C): what has started is stopped again. */
  signal?: AbortSignal;
}

export interface RunningCluster {
  servers: { name: string; url: string; pid: number }[];
  /** Where locks connect. */
  lockUrl: string;
  /** MQTT_URL as the servers use it (with the servers' password). */
  mqttUrl: string;
  mosquittoPid: number;
  /** Every line Mosquitto printed so far (tests look for dropped messages in it). */
  mosquittoLog: string[];
  demoLocks: number;
  stop(): Promise<void>;
}

/** The secrets every server of the set shares, kept in the set's folder so a restart keeps sessions. */
interface ClusterSecrets {
  jwtSecret: string;
  sealSecretKey: string;
  mqttPassword: string;
}

function clusterSecrets(dir: string): ClusterSecrets {
  const file = path.join(dir, 'cluster.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as ClusterSecrets;
  const secrets: ClusterSecrets = {
    jwtSecret: crypto.randomBytes(48).toString('base64url'),
    sealSecretKey: encodeBase64(crypto.randomBytes(32)),
    mqttPassword: crypto.randomBytes(18).toString('base64url'),
  };
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/**
 * `count` distinct ports free now, for a set started by a test or bench: each is held open until
 * all are found, so none is handed out twice.
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Passes each line a child prints to `output`; answers the lines so far. */
function followOutput(child: ChildProcess, source: string, output: ClusterOptions['output']): string[] {
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    readline.createInterface({ input: stream }).on('line', (line) => {
      lines.push(line);
      output(source, line);
    });
  }
  return lines;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Ends a process of the set (Mosquitto, a server): SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited(child);
  clearTimeout(timer);
}

/**
 * How a server is started: from the sources, as this command runs, so the set is always the code
 * of this checkout (a build left from an earlier commit would be a different server).
 */
function serverCommand(): string[] {
  const root = path.resolve(import.meta.dirname, '../../../..');
  return ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')];
}

/** Waits until a server takes connections on its port, or fails with what it printed if it exits first. */
async function serverReady(
  child: ChildProcess,
  lines: string[],
  name: string,
  port: number,
  signal: AbortSignal | undefined,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await canConnect(port))) {
    signal?.throwIfAborted();
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} stopped while starting:\n${lines.slice(-15).join('\n')}`);
    }
    if (Date.now() > deadline) throw new Error(`${name} did not start within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A running Mosquitto of the set, with every line it printed so far. */
export interface RunningMosquitto {
  process: ChildProcess;
  pidFile: string;
  log: string[];
}

/**
 * Starts Mosquitto on the set's folder: the exported files must be there (exportMosquittoFiles).
 * Exported for the bench, which runs the same broker without servers.
 */
export async function startMosquitto(
  options: Pick<
    ClusterOptions,
    'dir' | 'lockPort' | 'lockAddress' | 'serverMqttPort' | 'mosquittoPath' | 'output' | 'signal'
  >,
): Promise<RunningMosquitto> {
  const dir = path.resolve(options.dir);
  const pidFile = path.join(dir, 'mosquitto.pid');
  const confPath = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    confPath,
    [
      '# Written by npm run cluster: a private Mosquitto for the scale-out set on this machine.',
      'persistence true',
      `persistence_location ${dir}/`,
      // stderr: Mosquitto buffers its stdout when it is a pipe, and the lines would come late.
      'log_dest stderr',
      // A fleet's logins are thousands of lines; refusals and dropped messages still show.
      'connection_messages false',
      // Started by this command as its own user: Mosquitto would otherwise drop from root to its
      // `mosquitto` user, who cannot read the owner-only password files written here.
      ...(process.getuid?.() === 0 ? ['user root'] : []),
      mosquittoConf(dir, {
        lockListener: options.lockAddress
          ? `${options.lockPort} ${options.lockAddress}`
          : String(options.lockPort),
        serverListener: `${options.serverMqttPort} 127.0.0.1`,
        pidFile,
      }),
    ].join('\n'),
  );
  const mosquitto = spawn(options.mosquittoPath, ['-c', confPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  const log = followOutput(mosquitto, 'mosquitto', options.output);
  const deadline = Date.now() + 10_000;
  while (!((await canConnect(options.lockPort)) && (await canConnect(options.serverMqttPort)))) {
    if (options.signal?.aborted || mosquitto.exitCode !== null || Date.now() > deadline) {
      await stopChild(mosquitto);
      options.signal?.throwIfAborted();
      throw new Error(`Mosquitto did not start:\n${log.slice(-10).join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { process: mosquitto, pidFile, log };
}

export async function startCluster(options: ClusterOptions): Promise<RunningCluster> {
  const dir = path.resolve(options.dir);
  fs.mkdirSync(dir, { recursive: true });
  const dataDir = path.join(dir, 'data');
  const secrets = clusterSecrets(dir);
  const mqttUrl = `mqtt://latchkey:${secrets.mqttPassword}@127.0.0.1:${options.serverMqttPort}`;
  const children: ChildProcess[] = [];
  const watching = new AbortController();
  let db: Database | null = null;
  let demoFleet: LockFleet | null = null;
  let watcher: Promise<void> = Promise.resolve();

  const stop = async () => {
    await demoFleet?.stop();
    // The servers first (they finish what they hold), then the broker they used.
    await Promise.all(children.slice(1).map((child) => stopChild(child)));
    watching.abort();
    await watcher;
    if (children[0]) await stopChild(children[0]);
    await db?.destroy();
    db = null;
  };

  try {
    // 1. The schema, before anything reads it (the export does).
    ({ db } = openDatabase({ databaseUrl: options.databaseUrl, dataDir }));
    await migrateToLatest(db);

    // 2. The broker's files, then the broker.
    await exportMosquittoFiles(db, dir, mqttUrl);
    const mosquitto = await startMosquitto({ ...options, dir });
    children.push(mosquitto.process);
    const { pidFile } = mosquitto;
    const mosquittoLog = mosquitto.log;
    const watchedDb = db;
    watcher = watchMosquittoFiles(watchedDb, dir, mqttUrl, {
      everyMs: options.exportEveryMs,
      pidFile,
      owner: null,
      signal: watching.signal,
      report: (line) => options.output('export', line),
    });

    // 3. The servers: the first alone (it makes the demo portal on an empty database), then the rest.
    const servers: RunningCluster['servers'] = [];
    const startServer = async (index: number) => {
      const name = `server-${index + 1}`;
      const port = options.serverPorts[index]!;
      const child = spawn(process.execPath, serverCommand(), {
        env: {
          ...options.env,
          PORT: String(port),
          HOST: options.host,
          DATABASE_URL: options.databaseUrl,
          REDIS_URL: options.redisUrl,
          MQTT_URL: mqttUrl,
          JWT_SECRET: secrets.jwtSecret,
          SEAL_SECRET_KEY: secrets.sealSecretKey,
          // Shared, as a volume would be on separate machines: listing images live here.
          DATA_DIR: dataDir,
          // This command plays the demo locks itself, against the locks' listener.
          DEMO_LOCKS: 'false',
          LOG_FORMAT: options.env.LOG_FORMAT ?? 'json',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      const lines = followOutput(child, name, options.output);
      await serverReady(child, lines, name, port, options.signal);
      servers[index] = { name, url: `http://${options.host}:${port}`, pid: child.pid! };
    };
    await startServer(0);
    options.signal?.throwIfAborted();
    await Promise.all(options.serverPorts.slice(1).map((_, i) => startServer(i + 1)));

    // 4. The demo's locks, once the broker knows them.
    let demoLocks = 0;
    const lockUrl = `mqtt://${options.lockAddress ?? '127.0.0.1'}:${options.lockPort}`;
    if (options.demoLocks && fs.existsSync(path.join(dataDir, 'demo-locks.json'))) {
      const exported = await exportMosquittoFiles(watchedDb, dir, mqttUrl);
      if (exported.changed) reloadMosquitto(pidFile);
      // Mosquitto reloads on the signal between two of its loops: give it a moment.
      await new Promise((resolve) => setTimeout(resolve, 500));
      demoFleet = await startDemoLocks(lockUrl, dataDir, pino({ level: 'warn' }));
      demoLocks = demoFleet ? demoLockCount(dataDir) : 0;
    }

    return {
      servers,
      lockUrl,
      mqttUrl,
      mosquittoPid: mosquitto.process.pid!,
      mosquittoLog,
      demoLocks,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function demoLockCount(dataDir: string): number {
  const locks = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-locks.json'), 'utf8')) as unknown[];
  return locks.length;
}

import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../config';
import { openDatabase } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';
import {
  exportMosquittoFiles,
  fileOwnerNamed,
  mosquittoConf,
  watchMosquittoFiles,
  type FileOwner,
} from './mosquitto-export';

const USAGE = `usage: npm run mqtt:export -- <directory> [options]

Writes Mosquitto's password and ACL files for every lock in the database (DATABASE_URL, or the
SQLite file in DATA_DIR; migrated first, so a fresh database works) and for the servers' account
from MQTT_URL, and prints the part of mosquitto.conf they need.

  --lock-port <port>       the locks' listener port (default 1883)
  --lock-address <addr>    bind the locks' listener to this address only (default: every interface)
  --owner <user>           give the files to this user, the one Mosquitto runs as (default when run
                           as root: mosquitto, if that user exists); needs root
  --pid-file <path>        where Mosquitto writes its process id (printed into the configuration)
  --watch                  keep running: rewrite the files when a lock is added, deleted or given a
                           new secret, and reload Mosquitto (SIGHUP to --pid-file's process)
  --every <seconds>        with --watch: how often the database is read (default 5)
  -h, --help               this text`;

/** MQTT_URL's port when it names none. */
const DEFAULT_PORTS: Record<string, string> = {
  'mqtt:': '1883',
  'mqtts:': '8883',
  'ws:': '80',
  'wss:': '443',
};

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function portOption(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`${name} must be a port (1–65535)`);
  return port;
}

/**
 * Whom the files should belong to: --owner, or, run as root, the `mosquitto` user Debian's package
 * and the official image drop to (otherwise Mosquitto cannot read the owner-only password files).
 */
function ownerOf(requested: string | undefined): FileOwner | null {
  const root = process.getuid?.() === 0;
  if (requested) {
    const owner = fileOwnerNamed(requested);
    if (!owner) fail(`--owner ${requested}: no such user on this machine`);
    if (!root && owner.uid !== process.getuid?.())
      fail(`--owner ${requested}: only root can give files away`);
    return owner;
  }
  return root ? fileOwnerNamed('mosquitto') : null;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'lock-port': { type: 'string' },
      'lock-address': { type: 'string' },
      owner: { type: 'string' },
      'pid-file': { type: 'string' },
      watch: { type: 'boolean', default: false },
      every: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (positionals.length !== 1) fail('name one directory to write the files into');
  const dir = path.resolve(positionals[0]!);
  const lockPort = portOption(values['lock-port'], '--lock-port', 1883);
  const everySeconds = values.every === undefined ? 5 : Number(values.every);
  if (!(everySeconds >= 1 && everySeconds <= 3600)) fail('--every must be 1–3600 seconds');
  const pidFile = values['pid-file'] ? path.resolve(values['pid-file']) : null;
  const owner = ownerOf(values.owner);

  const config = loadConfig();
  const { db, description } = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const applied = await migrateToLatest(db);
    console.log(`database: ${description}${applied.length ? ` (migrated: ${applied.length} steps)` : ''}`);
    const result = await exportMosquittoFiles(db, dir, config.MQTT_URL, { owner });
    console.log(`wrote ${result.passwordPath} (${result.locks} locks) and ${result.aclPath}`);
    console.log(
      `wrote ${result.serverPasswordPath} and ${result.serverAclPath}${result.serverUsername ? ` (server account ${result.serverUsername})` : ''}`,
    );
    console.log(
      owner
        ? `the files belong to ${owner.name} (uid ${owner.uid}); the password files are readable by that user only, so Mosquitto must run as ${owner.name}`
        : `the files belong to ${os.userInfo().username}; the password files are readable by that user only, so Mosquitto must run as ${os.userInfo().username} (as root: --owner <the user Mosquitto drops to>)`,
    );
    if (!result.serverUsername) {
      console.log(
        'no server account: set MQTT_URL=mqtt://user:password@host:port to include the one the server uses',
      );
    }
    if (result.withoutHash > 0) {
      console.log(
        `${result.withoutHash} locks have no broker hash (added before it was kept) and were left out`,
      );
    }
    // The servers' listener binds where MQTT_URL says the servers reach it.
    const serverUrl = config.MQTT_URL ? new URL(config.MQTT_URL) : null;
    const serverPort = serverUrl ? serverUrl.port || DEFAULT_PORTS[serverUrl.protocol]! : '1884';
    const serverHost = serverUrl?.hostname ?? '<an address only the servers reach>';
    if (serverPort === String(lockPort)) {
      console.log(
        `MQTT_URL uses port ${lockPort}, which the locks' listener below takes: give the servers' listener its own port and MQTT_URL with it (or the locks another with --lock-port)`,
      );
    }
    const conf = mosquittoConf(dir, {
      lockListener: values['lock-address'] ? `${lockPort} ${values['lock-address']}` : String(lockPort),
      serverListener: `${serverPort} ${serverHost}`,
      ...(pidFile && { pidFile }),
    });
    console.log(
      [
        '',
        `Mosquitto configuration (restart Mosquitto after changing it; ${values.watch ? 'this command reloads it after each change to the locks' : 'after every export, reload it: kill -HUP <pid>, or run this with --watch'}):`,
        ...conf
          .trimEnd()
          .split('\n')
          .map((line) => `  ${line}`),
        ...(serverUrl && serverUrl.protocol !== 'mqtt:'
          ? [
              `  # and for ${serverUrl.protocol}// the servers' listener needs its TLS or websockets lines too`,
            ]
          : []),
      ].join('\n'),
    );
    if (!values.watch) return;

    if (!pidFile)
      console.log('\nwatching without --pid-file: the files are rewritten, Mosquitto is not reloaded');
    console.log(`\nwatching the database every ${everySeconds} s (Ctrl-C to stop)`);
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());
    process.once('SIGTERM', () => stop.abort());
    await watchMosquittoFiles(db, dir, config.MQTT_URL, {
      everyMs: everySeconds * 1000,
      pidFile,
      owner,
      signal: stop.signal,
      report: (line) => console.log(`${new Date().toISOString()} ${line}`),
    });
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

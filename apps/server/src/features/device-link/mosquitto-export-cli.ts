import path from 'node:path';
import { ConfigError, loadConfig } from '../../config';
import { openDatabase } from '../../db/database';
import { exportMosquittoFiles, mosquittoConf } from './mosquitto-export';

/** Where locks connect; the servers' listener is elsewhere. */
const LOCK_PORT = 1883;
/** MQTT_URL's port when it names none. */
const DEFAULT_PORTS: Record<string, string> = {
  'mqtt:': '1883',
  'mqtts:': '8883',
  'ws:': '80',
  'wss:': '443',
};

/**
 * npm run mqtt:export -- <dir>: writes Mosquitto's password and ACL files for every lock in the
 * database (DATABASE_URL or the SQLite file in DATA_DIR) and for the server's account from
 * MQTT_URL, and prints the listeners mosquitto.conf needs for them.
 */
async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: npm run mqtt:export -- <directory>');
    process.exit(2);
  }
  const config = loadConfig();
  const { db, description } = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const result = await exportMosquittoFiles(db, path.resolve(dir), config.MQTT_URL);
    console.log(`database: ${description}`);
    console.log(`wrote ${result.passwordPath} (${result.locks} locks) and ${result.aclPath}`);
    console.log(
      `wrote ${result.serverPasswordPath} and ${result.serverAclPath}${result.serverUsername ? ` (server account ${result.serverUsername})` : ''}`,
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
    if (serverPort === String(LOCK_PORT)) {
      console.log(
        `MQTT_URL uses port ${LOCK_PORT}, which the locks' listener below takes: give the servers' listener its own port and MQTT_URL with it`,
      );
    }
    const conf = mosquittoConf(path.resolve(dir), {
      lockListener: String(LOCK_PORT),
      serverListener: `${serverPort} ${serverHost}`,
    });
    console.log(
      [
        '',
        'Mosquitto configuration (restart Mosquitto after changing it; after every export, reload it: kill -HUP <pid>):',
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
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

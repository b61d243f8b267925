import path from 'node:path';
import { ConfigError, loadConfig } from '../../config';
import { openDatabase } from '../../db/database';
import { exportMosquittoFiles } from './mosquitto-export';

/**
 * npm run mqtt:export -- <dir>: writes Mosquitto's password and ACL files for every lock in the
 * database (DATABASE_URL or the SQLite file in DATA_DIR), plus the server's account from MQTT_URL.
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
    console.log(
      `wrote ${result.passwordPath} (${result.locks} locks${result.serverUsername ? ` + server account ${result.serverUsername}` : ''})`,
    );
    console.log(`wrote ${result.aclPath}`);
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
    console.log(
      [
        '',
        'Mosquitto configuration (then reload it: kill -HUP <pid>, after every export):',
        '  listener 1883',
        '  allow_anonymous false',
        `  password_file ${result.passwordPath}`,
        `  acl_file ${result.aclPath}`,
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

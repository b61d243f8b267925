import { ConfigError, loadConfig } from '../config';
import { openDatabase } from './database';
import { migrateToLatest } from './migrate';

/**
 * npm run migrate: brings the configured database (DATABASE_URL, or the SQLite file in DATA_DIR) to
 * the newest schema and exits. A server migrates on start too; this is the first step of a
 * deployment that starts several servers, or that exports the broker's files first (README,
 * "Scale-out").
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const { db, description } = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const applied = await migrateToLatest(db);
    console.log(
      applied.length > 0
        ? `${description}: applied ${applied.length} migrations, up to ${applied.at(-1)}`
        : `${description}: already up to date`,
    );
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});

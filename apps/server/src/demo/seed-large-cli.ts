import { parseArgs } from 'node:util';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { loadConfig } from '../config';
import { largePortalSize, seedLargePortal } from './seed-large';

/**
 * npm run seed:large [-- --people 500000]: adds a benchmark portal to the configured database,
 * 50,000 people unless told otherwise (locks and credentials grow with it, see largePortalSize).
 */
async function main() {
  const { values } = parseArgs({ options: { people: { type: 'string', default: '50000' } } });
  const people = Number(values.people);
  if (!Number.isInteger(people) || people < 1)
    throw new Error(`--people must be a whole number, not ${values.people}`);
  const size = largePortalSize(people);
  const config = loadConfig();
  const { db, description } = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrateToLatest(db);
    const started = Date.now();
    const { ownerEmail, password } = await seedLargePortal(db, size);
    console.log(
      `Seeded "Benchmark Towers" (${size.devices} locks, ${size.users} people, ` +
        `${size.credentials} credentials) into ${description} in ${((Date.now() - started) / 1000).toFixed(1)} s.\n` +
        `Sign in as ${ownerEmail} / ${password}`,
    );
  } finally {
    await db.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { loadConfig } from '../config';
import { BENCHMARK_SIZE, seedLargePortal } from './seed-large';

/** npm run seed:large: adds a benchmark-sized portal to the configured database. */
async function main() {
  const config = loadConfig();
  const { db, description } = openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    await migrateToLatest(db);
    const started = Date.now();
    const { ownerEmail, password } = await seedLargePortal(db, BENCHMARK_SIZE);
    console.log(
      `Seeded "Benchmark Towers" (${BENCHMARK_SIZE.devices} locks, ${BENCHMARK_SIZE.users} people, ` +
        `${BENCHMARK_SIZE.credentials} credentials) into ${description} in ${((Date.now() - started) / 1000).toFixed(1)} s.\n` +
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

import fs from 'node:fs/promises';
import path from 'node:path';
import { LockFleet } from '@latchkey/locksim';
import type { FastifyBaseLogger } from 'fastify';
import type { DemoLockSecret } from './seed-demo';

// The demo portal's connected locks, run as simulated locks beside the server (DEMO_LOCKS), so a
// fresh `npm start` shows real status, credential sync, events and remote unlock. They speak only
// the device protocol, through the same broker a real lock would use.

const SECRETS_FILE = 'demo-locks.json';

/** Keeps the demo locks' secrets (shown once by the API) in the data folder, readable by this user only. */
export async function saveDemoLockSecrets(dataDir: string, locks: DemoLockSecret[]): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(path.join(dataDir, SECRETS_FILE), JSON.stringify(locks, null, 2), { mode: 0o600 });
}

async function readDemoLockSecrets(dataDir: string): Promise<DemoLockSecret[]> {
  try {
    return JSON.parse(await fs.readFile(path.join(dataDir, SECRETS_FILE), 'utf8')) as DemoLockSecret[];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Starts the demo locks against the broker at `url`; answers the running fleet (stop it before the
 * server closes), or null when there are none (a database not seeded by this data folder).
 */
export async function startDemoLocks(
  url: string,
  dataDir: string,
  log: FastifyBaseLogger,
): Promise<LockFleet | null> {
  const locks = await readDemoLockSecrets(dataDir);
  if (locks.length === 0) return null;
  const fleet = new LockFleet({
    url,
    locks: locks.map(({ deviceId, secret }) => ({ deviceId, secret })),
    heartbeatSeconds: 30,
    // Credential sets and unacknowledged events survive a restart, as on a real lock.
    stateDir: path.join(dataDir, 'demo-locks-state'),
  });
  const { connected, failed } = await fleet.start();
  for (const { deviceId, error } of failed) {
    log.warn({ deviceId, err: error }, 'demo lock could not connect (deleted, or its secret changed?)');
  }
  const names = locks.filter((lock) => connected.includes(lock.deviceId)).map((lock) => lock.name);
  log.info(
    { locks: names },
    `${names.length} simulated demo locks connected (DEMO_LOCKS=false turns them off)`,
  );
  return fleet;
}

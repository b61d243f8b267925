import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../db/database';
import { seedAccountsInBulk } from '../features/auth/accounts';
import { hashPassword } from '../features/auth/password';
import { hashDeviceSecret } from '../features/devices/devices.service';
import { insertPortal } from '../base/tenancy/portals.repository';

export interface LargePortalSize {
  devices: number;
  users: number;
  /** Credentials in all: each person gets an access code, the rest are RFID cards. */
  credentials: number;
  groups: number;
}

export const BENCHMARK_SIZE: LargePortalSize = {
  devices: 5_000,
  users: 50_000,
  credentials: 100_000,
  groups: 100,
};

/**
 * The benchmark portal with `people` members (50,000 is BENCHMARK_SIZE): a lock per ten people up
 * to 5,000, two credentials each (a code and a card), 100 groups.
 */
export function largePortalSize(people: number): LargePortalSize {
  return {
    devices: Math.max(1, Math.min(5_000, Math.round(people / 10))),
    users: people,
    credentials: people * 2,
    groups: Math.max(1, Math.min(100, Math.round(people / 500))),
  };
}

const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'UTC'];
const MODELS = ['latchkey-sim', 'generic-smartlock', 'generic-codelock'] as const;

async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>, size = 400) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/**
 * A large portal for benchmarks, written in bulk (not through the services: 150,000 audited
 * writes would measure the seeding, not the portal). Everyone shares one password hash.
 * Answers the portal id and its owner's email; the password is `bench passphrase`.
 */
export async function seedLargePortal(db: Database, size: LargePortalSize = BENCHMARK_SIZE) {
  const now = new Date().toISOString();
  const passwordHash = await hashPassword('bench passphrase');
  const portalId = crypto.randomUUID();
  const ownerEmail = `owner-${portalId.slice(0, 8)}@bench.latchkey.dev`;
  const userIds = Array.from({ length: size.users }, () => crypto.randomUUID());
  const deviceIds = Array.from({ length: size.devices }, () => crypto.randomUUID());
  const groupIds = Array.from({ length: size.groups }, () => crypto.randomUUID());

  await db.transaction().execute(async (trx) => {
    await insertInBatches(userIds, (batch) =>
      seedAccountsInBulk(
        trx,
        batch.map((id) => ({
          id,
          email: id === userIds[0] ? ownerEmail : `person-${id.slice(0, 13)}@bench.latchkey.dev`,
          firstName: `First${id.slice(0, 4)}`,
          lastName: `Last${id.slice(4, 8)}`,
        })),
        passwordHash,
        now,
      ),
    );
    await insertPortal(trx, {
      id: portalId,
      name: 'Benchmark Towers',
      owner_user_id: userIds[0]!,
      time_zone: 'UTC',
      expire_date: null,
      stripe_status: 'active',
      created_at: now,
      updated_at: now,
    });
    await insertInBatches(userIds, (batch) =>
      trx
        .insertInto('memberships')
        .values(
          batch.map((user_id) => ({
            portal_id: portalId,
            user_id,
            role: user_id === userIds[0] ? ('admin' as const) : ('user' as const),
            status: 'active' as const,
            // One member in fifty has the portal's own name for them (a label over the account's).
            ...(parseInt(user_id.slice(9, 11), 16) % 50 === 1 && {
              first_name: `Label${user_id.slice(9, 13)}`,
              last_name: `Tag${user_id.slice(14, 18)}`,
            }),
            created_at: now,
            updated_at: now,
          })),
        )
        .execute(),
    );
    await insertInBatches(deviceIds, (batch) =>
      trx
        .insertInto('devices')
        .values(
          batch.map((id, i) => ({
            id,
            portal_id: portalId,
            name: `Door ${id.slice(0, 6)}`,
            model: MODELS[i % MODELS.length]!,
            serial: `SN-${id.slice(0, 8)}`,
            time_zone: ZONES[i % ZONES.length]!,
            secret_hash: hashDeviceSecret(id),
            battery: 5 + (i % 95),
            created_at: now,
            updated_at: now,
          })),
        )
        .execute(),
    );
    await trx
      .insertInto('groups')
      .values(
        groupIds.map((id, i) => ({
          id,
          portal_id: portalId,
          name: `Group ${i + 1}`,
          description: '',
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    // Every person is in one group; every group opens an equal share of the locks.
    await insertInBatches(userIds, (batch) =>
      trx
        .insertInto('group_users')
        .values(
          batch.map((user_id) => ({
            portal_id: portalId,
            group_id: groupIds[parseInt(user_id.slice(0, 6), 16) % groupIds.length]!,
            user_id,
            created_at: now,
          })),
        )
        .execute(),
    );
    await insertInBatches(deviceIds, (batch) =>
      trx
        .insertInto('group_devices')
        .values(
          batch.map((device_id, i) => ({
            portal_id: portalId,
            group_id: groupIds[i % groupIds.length]!,
            device_id,
            created_at: now,
          })),
        )
        .execute(),
    );
    const credentials = Array.from({ length: size.credentials }, (_, i) => {
      const isCode = i < size.users;
      return {
        id: crypto.randomUUID(),
        portal_id: portalId,
        user_id: userIds[i % size.users]!,
        kind: isCode ? ('code' as const) : ('rfid' as const),
        // Codes are 8 digits, cards 7-byte UIDs; the index keeps both unique.
        secret: isCode ? String(10_000_000 + i) : i.toString(16).padStart(14, '0').toUpperCase(),
        name: '',
        created_at: now,
      };
    });
    await insertInBatches(credentials, (batch) => trx.insertInto('credentials').values(batch).execute());
  });
  // Fresh planner statistics, as PostgreSQL's autovacuum would gather them soon after a bulk load:
  // without them it takes the portal for a few hundred rows and joins 50,000 people one by one
  // (a people search took 105 ms instead of 35).
  await sql`analyze`.execute(db);
  return { portalId, ownerEmail, password: 'bench passphrase' };
}

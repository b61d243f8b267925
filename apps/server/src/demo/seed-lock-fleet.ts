import crypto from 'node:crypto';
import { insertOwnedPortal } from '../base/tenancy/portals.repository';
import type { Database } from '../db/database';
import { seedAccountsInBulk } from '../features/auth/accounts';
import { brokerPasswordHash, hashDeviceSecret } from '../features/devices/devices.service';

/**
 * A portal of `count` locks for the scale-out test and bench: an owner (through the accounts
 * module, with no usable password), their portal, and the locks inserted in bulk with both forms
 * of their secret, as adding a lock stores them (the broker's `$7$` hash included, so an export
 * admits them to Mosquitto). Answers each lock's id and secret, to log in with.
 */
export async function seedLockFleet(db: Database, count: number, name = 'Fleet') {
  const now = new Date().toISOString();
  const userId = crypto.randomUUID();
  const portalId = crypto.randomUUID();
  await seedAccountsInBulk(
    db,
    [{ id: userId, email: `fleet-${userId}@example.com`, firstName: name, lastName: '' }],
    'unused',
    now,
  );
  await db
    .transaction()
    .execute((trx) => insertOwnedPortal(trx, { portalId, userId, name, timeZone: 'UTC', now }));
  const locks = Array.from({ length: count }, () => ({
    deviceId: crypto.randomUUID(),
    secret: crypto.randomBytes(24).toString('base64url'),
  }));
  for (let start = 0; start < locks.length; start += 500) {
    await db
      .insertInto('devices')
      .values(
        locks.slice(start, start + 500).map((lock, i) => ({
          id: lock.deviceId,
          portal_id: portalId,
          name: `Door ${start + i}`,
          model: 'latchkey-sim' as const,
          serial: null,
          time_zone: 'UTC',
          secret_hash: hashDeviceSecret(lock.secret),
          broker_password_hash: brokerPasswordHash(lock.secret),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
  return { portalId, locks };
}

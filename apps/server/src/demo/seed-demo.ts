import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import { nowIso } from '../db/mappers';
import { createAccount } from '../features/auth/account.service';
import { hashPassword } from '../features/auth/password';
import { insertUser } from '../features/auth/users.repository';
import { insertMembership } from '../features/portals/memberships.repository';

/** The demo sign-ins; the README and the start-up log give them. */
export const DEMO_ACCOUNTS = {
  admin: { email: 'admin@demo.latchkey.dev', password: 'demo-admin-pass' },
  user: { email: 'user@demo.latchkey.dev', password: 'demo-user-pass' },
  officeOwner: { email: 'office@demo.latchkey.dev', password: 'demo-office-pass' },
} as const;

/**
 * On first start with an empty database: a demo portal with an admin (its owner) and a basic
 * user, and a second portal where the demo admin is also an admin, to show portal switching.
 * Does nothing once anyone has an account.
 */
export async function seedDemoPortal(db: Database, log: FastifyBaseLogger): Promise<boolean> {
  const anyone = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyone) return false;

  const admin = await createAccount(
    db,
    { ...DEMO_ACCOUNTS.admin, firstName: 'Dana', lastName: 'Admin', portalName: 'Demo Apartments' },
    { timeZone: 'Europe/Berlin', emailVerified: true },
  );
  const portal = await db
    .selectFrom('portals')
    .select('id')
    .where('owner_user_id', '=', admin.id)
    .executeTakeFirstOrThrow();
  // Paid up for a year, so the demo shows a current portal.
  await db
    .updateTable('portals')
    .set({ expire_date: new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString() })
    .where('id', '=', portal.id)
    .execute();

  const now = nowIso();
  const userId = crypto.randomUUID();
  await db.transaction().execute(async (trx) => {
    await insertUser(trx, {
      id: userId,
      email: DEMO_ACCOUNTS.user.email,
      password_hash: await hashPassword(DEMO_ACCOUNTS.user.password),
      first_name: 'Sam',
      last_name: 'Resident',
      platform_role: null,
      status: 'active',
      email_verified_at: now,
      created_at: now,
      updated_at: now,
    });
    await insertMembership(trx, {
      portal_id: portal.id,
      user_id: userId,
      role: 'user',
      status: 'active',
      created_at: now,
      updated_at: now,
    });
  });
  const officeOwner = await createAccount(
    db,
    { ...DEMO_ACCOUNTS.officeOwner, firstName: 'Omar', lastName: 'Office', portalName: 'Harbor Offices' },
    { timeZone: 'America/New_York', emailVerified: true },
  );
  const offices = await db
    .selectFrom('portals')
    .select('id')
    .where('owner_user_id', '=', officeOwner.id)
    .executeTakeFirstOrThrow();
  await insertMembership(db, {
    portal_id: offices.id,
    user_id: admin.id,
    role: 'admin',
    status: 'active',
    created_at: now,
    updated_at: now,
  });

  log.info(
    {
      admin: `${DEMO_ACCOUNTS.admin.email} / ${DEMO_ACCOUNTS.admin.password}`,
      basicUser: `${DEMO_ACCOUNTS.user.email} / ${DEMO_ACCOUNTS.user.password}`,
    },
    'demo portal "Demo Apartments" created; sign in with these',
  );
  return true;
}

import crypto from 'node:crypto';
import type { PortalRole } from '@latchkey/shared';
import { issueSessionToken } from '../src/base/identity/sessions';
import { findUserById } from '../src/base/identity/users.repository';
import { insertOwnedPortal } from '../src/base/tenancy/portals.repository';
import { seedAccountsInBulk } from '../src/features/auth/accounts';
import { hashPassword } from '../src/features/auth/password';
import type { TestApp } from './test-app';

// Fixtures inserted directly, for tests that only need them to exist: signing someone up through
// the sealed API (TestApp.signUp) hashes their password with argon2 and mails them, which is
// what the auth tests are about and costs the others time. People go in through the accounts
// module, the one door to the users table; portals as sign-up makes them (insertOwnedPortal
// announces them, so they get their default alert rules).

/** The password of everyone a factory makes, as TestApp.signUp's default. */
export const FACTORY_PASSWORD = 'a sturdy passphrase';

// One argon2 hash of it for every person made in this process: the hash is what costs.
let factoryPasswordHash: Promise<string> | null = null;

interface PersonInput {
  email?: string;
  firstName?: string;
  lastName?: string;
}

/** A confirmed person with FACTORY_PASSWORD and no portal; answers their id, address and session. */
async function insertPerson(t: TestApp, input: PersonInput) {
  const userId = crypto.randomUUID();
  const email = (input.email ?? `person-${crypto.randomUUID().slice(0, 8)}@example.com`).trim().toLowerCase();
  factoryPasswordHash ??= hashPassword(FACTORY_PASSWORD);
  const person = { id: userId, email, firstName: input.firstName ?? 'Test', lastName: input.lastName ?? '' };
  await seedAccountsInBulk(t.app.db, [person], await factoryPasswordHash, new Date().toISOString());
  const user = (await findUserById(t.app.db, userId))!;
  const { token } = await issueSessionToken(t.app.secrets.jwtKey, user, t.app.config.SESSION_TTL_HOURS);
  return { token, email, userId };
}

/**
 * A confirmed person who owns a portal, as sign-up and the verification link leave them (named
 * "Test" and "Test's portal" unless told, in UTC), and their session. Answers what TestApp.signUp
 * answers.
 */
export async function makeOwner(t: TestApp, input: PersonInput & { portalName?: string } = {}) {
  const person = await insertPerson(t, input);
  const portalId = crypto.randomUUID();
  const firstName = (input.firstName ?? 'Test') || person.email.split('@')[0];
  await t.app.db.transaction().execute((trx) =>
    insertOwnedPortal(trx, {
      portalId,
      userId: person.userId,
      name: input.portalName || `${firstName}'s portal`,
      timeZone: 'UTC',
      now: new Date().toISOString(),
    }),
  );
  return { ...person, portalId };
}

/**
 * A confirmed person who is an active member of `portalId` with `role` (as after accepting an
 * invitation: no portal of their own), and their session.
 */
export async function makeMember(
  t: TestApp,
  portalId: string,
  input: PersonInput & { role?: PortalRole } = {},
) {
  const person = await insertPerson(t, input);
  await t.addMember(portalId, person.userId, input.role ?? 'user');
  return person;
}

/** Platform staff (superAdmin: there is no public way to become one) and their session. */
export async function makeStaff(t: TestApp, input: PersonInput = {}) {
  const person = await insertPerson(t, { firstName: 'Staff', ...input });
  await t.app.db
    .updateTable('users')
    .set({ platform_role: 'superAdmin' })
    .where('id', '=', person.userId)
    .execute();
  return person;
}

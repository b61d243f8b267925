import type { Database } from '../db/database';
import type { MailThrottle } from '../base/mail/mail-throttle';
import { findUserByEmail } from '../base/identity/users.repository';
import { createDemoAccount } from '../features/auth/accounts';
import { invitePerson } from '../features/invitations/invitations.service';

/** The demo sign-ins of issue 20 item 2 (a home for each role); the README lists them. */
export const ROLE_HOMES_ACCOUNTS = {
  /** Owns no portal and acts in none: lands on /app/empty, with an invitation to Harbor Offices. */
  newcomer: { email: 'newcomer@demo.latchkey.dev', password: 'demo-newcomer-pass' },
} as const;

/**
 * A person who acts in no portal: a confirmed account without a portal of its own, invited to
 * Harbor Offices by its owner and not answered yet. Signed in, they land on `empty`: create a
 * portal, or accept or decline the invitation. Runs after Harbor Offices exists.
 */
export async function seedRoleHomes(
  db: Database,
  mail: { publicUrl: string; throttle: MailThrottle },
): Promise<void> {
  const newcomer = await createDemoAccount(
    db,
    { ...ROLE_HOMES_ACCOUNTS.newcomer, firstName: 'Nia', lastName: 'Newcomer' },
    { ownPortal: false },
  );
  const officeOwner = (await findUserByEmail(db, 'office@demo.latchkey.dev'))!;
  const offices = await db
    .selectFrom('portals')
    .select('id')
    .where('owner_user_id', '=', officeOwner.id)
    .executeTakeFirstOrThrow();
  await invitePerson(
    db,
    { portalId: offices.id, actorUserId: officeOwner.id, ip: '127.0.0.1' },
    mail.publicUrl,
    { user: officeOwner, throttle: mail.throttle },
    {
      email: newcomer.email,
      firstName: 'Nia',
      lastName: 'Newcomer',
      role: 'user',
      groupIds: [],
      deviceIds: [],
    },
  );
}

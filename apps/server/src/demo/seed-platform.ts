import type { Database } from '../db/database';
import type { ChangeContext } from '../base/http/access';
import { createDemoAccount } from '../features/auth/accounts';
import { createDevice } from '../features/devices/devices.service';
import { sendMail } from '../base/mail/send-mail';
import { markMailAttemptFailed } from '../base/mail/mail.repository';

/** The demo customers of the platform console (issue 20, item 1); the README lists them. */
export const PLATFORM_DEMO_ACCOUNTS = {
  /** Owner of Northwind Hostel: two locks, one of them never connected. */
  hostel: { email: 'hostel@demo.latchkey.dev', password: 'demo-hostel-pass' },
  /** Owner of Bayview Lofts: a lock and a mail the sender gave up on (retry it from Background work). */
  lofts: { email: 'lofts@demo.latchkey.dev', password: 'demo-lofts-pass' },
} as const;

/**
 * Two more customer portals with owners, so platform staff have customers to find in the console
 * (by portal name or owner's email), locks to count and a failed mail to retry in Background work.
 */
export async function seedPlatformDemo(db: Database): Promise<void> {
  const hostelOwner = await createDemoAccount(
    db,
    { ...PLATFORM_DEMO_ACCOUNTS.hostel, firstName: 'Hana', lastName: 'Holm', portalName: 'Northwind Hostel' },
    { timeZone: 'Europe/Oslo' },
  );
  const loftsOwner = await createDemoAccount(
    db,
    { ...PLATFORM_DEMO_ACCOUNTS.lofts, firstName: 'Leo', lastName: 'Lane', portalName: 'Bayview Lofts' },
    { timeZone: 'America/Los_Angeles' },
  );
  const portalOf = async (userId: string) =>
    (
      await db
        .selectFrom('portals')
        .select('id')
        .where('owner_user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).id;
  const hostel = await portalOf(hostelOwner.id);
  const lofts = await portalOf(loftsOwner.id);
  const asHana: ChangeContext = { portalId: hostel, actorUserId: hostelOwner.id, ip: '127.0.0.1' };
  const asLeo: ChangeContext = { portalId: lofts, actorUserId: loftsOwner.id, ip: '127.0.0.1' };
  for (const name of ['Front door', 'Luggage room']) {
    await createDevice(
      db,
      asHana,
      { name, model: 'generic-smartlock', timeZone: 'Europe/Oslo' },
      undefined,
      'exempt',
    );
  }
  await createDevice(
    db,
    asLeo,
    { name: 'Loft entrance', model: 'generic-codelock', timeZone: 'America/Los_Angeles' },
    undefined,
    'exempt',
  );
  // A mail the sender gave up on (an address whose server refused it), for Background work's retry.
  // Queued through the one door for mail, then given up on as the sender does after its last try.
  const mailId = await sendMail(db, 'system', {
    portalId: lofts,
    template: 'device_invitation',
    to: 'guest@bayview-lofts.example',
    subject: 'Your code for Loft entrance',
    text: 'Your code for Loft entrance is ready.',
    html: '<p>Your code for Loft entrance is ready.</p>',
  });
  await markMailAttemptFailed(db, mailId, '550 mailbox unavailable', null);
}

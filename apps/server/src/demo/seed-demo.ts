import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import type { ChangeContext } from '../http/access';
import { grantDirectAccess, setUserSchedule } from '../features/access/access.service';
import { createAccount } from '../features/auth/account.service';
import { setAccessCode } from '../features/credentials/access-code.service';
import { createDevice } from '../features/devices/devices.service';
import { changeGroupLink, createGroup } from '../features/groups/groups.service';
import { addMember } from '../features/members/members.service';

/** The demo sign-ins; the README and the start-up log give them. */
export const DEMO_ACCOUNTS = {
  admin: { email: 'admin@demo.latchkey.dev', password: 'demo-admin-pass' },
  user: { email: 'user@demo.latchkey.dev', password: 'demo-user-pass' },
  officeOwner: { email: 'office@demo.latchkey.dev', password: 'demo-office-pass' },
} as const;

const WEEKDAYS = [1, 2, 3, 4, 5];

async function ownedPortalId(db: Database, userId: string): Promise<string> {
  const portal = await db
    .selectFrom('portals')
    .select('id')
    .where('owner_user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return portal.id;
}

/**
 * On first start with an empty database: "Demo Apartments" (Berlin) with locks, a group, a basic
 * user and people with codes and schedules, made through the same services an admin uses (so
 * the change log shows them), and "Harbor Offices" (New York), where the demo admin is also an
 * admin, to show portal switching. Does nothing once anyone has an account.
 */
export async function seedDemoPortal(db: Database, log: FastifyBaseLogger): Promise<boolean> {
  const anyone = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyone) return false;

  const admin = await createAccount(
    db,
    { ...DEMO_ACCOUNTS.admin, firstName: 'Dana', lastName: 'Admin', portalName: 'Demo Apartments' },
    { timeZone: 'Europe/Berlin', emailVerified: true },
  );
  const portalId = await ownedPortalId(db, admin.id);
  // Paid up for a year, so the demo shows a current portal.
  await db
    .updateTable('portals')
    .set({ expire_date: new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString() })
    .where('id', '=', portalId)
    .execute();
  const asAdmin: ChangeContext = { portalId, actorUserId: admin.id, ip: '127.0.0.1' };

  const lock = async (
    name: string,
    timeZone: string,
    model: 'latchkey-sim' | 'generic-codelock' = 'latchkey-sim',
  ) => (await createDevice(db, asAdmin, { name, model, timeZone })).device._id;
  const mainEntrance = await lock('Main entrance', 'Europe/Berlin');
  const bikeRoom = await lock('Bike room', 'Europe/Berlin', 'generic-codelock');
  const flat12 = await lock('Flat 1.2', 'Europe/Berlin');
  const lisbonStudio = await lock('Lisbon studio', 'Europe/Lisbon');

  const person = async (email: string, firstName: string, lastName: string, password?: string) =>
    (await addMember(db, asAdmin, { email, firstName, lastName, role: 'user', password })).member._id;
  const sam = await person(DEMO_ACCOUNTS.user.email, 'Sam', 'Resident', DEMO_ACCOUNTS.user.password);
  const ana = await person('ana.cleaner@demo.latchkey.dev', 'Ana', 'Cleaner');
  const ben = await person('ben.caretaker@demo.latchkey.dev', 'Ben', 'Caretaker');

  const residents = (
    await createGroup(db, asAdmin, { name: 'Residents', description: 'Everyone living here' })
  )._id;
  const cleaning = (
    await createGroup(db, asAdmin, { name: 'Cleaning crew', description: 'Weekday mornings' })
  )._id;
  for (const [group, link] of [
    [residents, { userId: sam }],
    [residents, { deviceId: mainEntrance }],
    [residents, { deviceId: bikeRoom }],
    [cleaning, { userId: ana }],
    [cleaning, { deviceId: mainEntrance }],
    [cleaning, { deviceId: lisbonStudio }],
  ] as const) {
    await changeGroupLink(db, asAdmin, group, link, true);
  }
  await grantDirectAccess(db, asAdmin, flat12, sam);
  await grantDirectAccess(db, asAdmin, mainEntrance, ben);
  await grantDirectAccess(db, asAdmin, bikeRoom, ben);

  const mornings = { windows: [{ days: WEEKDAYS, start: '07:00', end: '12:00' }] };
  await setUserSchedule(db, asAdmin, mainEntrance, ana, mornings);
  await setUserSchedule(db, asAdmin, lisbonStudio, ana, mornings);
  await setUserSchedule(db, asAdmin, bikeRoom, ben, {
    windows: [{ days: [0, 6], start: '22:00', end: '06:00' }],
  });
  await setAccessCode(db, asAdmin, sam, '482916');
  await setAccessCode(db, asAdmin, ana, '731904');
  await setAccessCode(db, asAdmin, ben, '2580');

  const officeOwner = await createAccount(
    db,
    { ...DEMO_ACCOUNTS.officeOwner, firstName: 'Omar', lastName: 'Office', portalName: 'Harbor Offices' },
    { timeZone: 'America/New_York', emailVerified: true },
  );
  const offices = await ownedPortalId(db, officeOwner.id);
  const asOfficeOwner: ChangeContext = { portalId: offices, actorUserId: officeOwner.id, ip: '127.0.0.1' };
  await addMember(db, asOfficeOwner, { email: admin.email, firstName: '', lastName: '', role: 'admin' });
  await createDevice(db, asOfficeOwner, {
    name: 'Lobby door',
    model: 'latchkey-sim',
    timeZone: 'America/New_York',
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

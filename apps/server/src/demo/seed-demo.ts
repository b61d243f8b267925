import { addDaysToDate, localWallTime } from '@latchkey/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import type { ChangeContext } from '../http/access';
import { grantDirectAccess, setUserSchedule } from '../features/access/access.service';
import { nowIso } from '../db/mappers';
import { createAccount } from '../features/auth/account.service';
import { setAccessCode } from '../features/credentials/access-code.service';
import { createCompanyCode } from '../features/credentials/company-codes.service';
import { createFingerprint } from '../features/credentials/fingerprints.service';
import { createKey } from '../features/credentials/keys.service';
import { registerCard } from '../features/credentials/rfid.service';
import { createInvite } from '../features/invites/invites.service';
import { createCodeLock, createDevice } from '../features/devices/devices.service';
import { changeGroupLink, createGroup } from '../features/groups/groups.service';
import { addMember } from '../features/members/members.service';

/** The demo sign-ins; the README and the start-up log give them. */
/** A demo lock that speaks the device protocol, with the secret it connects with. */
export interface DemoLockSecret {
  deviceId: string;
  name: string;
  secret: string;
}

export const DEMO_ACCOUNTS = {
  admin: { email: 'admin@demo.latchkey.dev', password: 'demo-admin-pass' },
  user: { email: 'user@demo.latchkey.dev', password: 'demo-user-pass' },
  officeOwner: { email: 'office@demo.latchkey.dev', password: 'demo-office-pass' },
  /** Platform staff (superAdmin): the dev mailbox, support sessions. */
  staff: { email: 'staff@demo.latchkey.dev', password: 'demo-staff-pass' },
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
 * On first start with an empty database: "Demo Apartments" (Berlin) with locks (one a code lock), a
 * group, a basic user and people with codes, a card, a fingerprint, keys and schedules, a company
 * code and a guest, made through the same services an admin uses (so
 * the change log shows them), and "Harbor Offices" (New York), where the demo admin is also an
 * admin, to show portal switching. Does nothing once anyone has an account.
 */
export async function seedDemoPortal(db: Database, log: FastifyBaseLogger): Promise<DemoLockSecret[] | null> {
  const anyone = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyone) return null;
  // The connected locks' secrets, shown once by the API: kept so the demo can run simulated locks.
  const connectedLocks: DemoLockSecret[] = [];
  const keepSecret = (created: {
    device: { _id: string; name: string; model: string };
    deviceSecret: string;
  }) => {
    if (created.device.model === 'latchkey-sim') {
      connectedLocks.push({
        deviceId: created.device._id,
        name: created.device.name,
        secret: created.deviceSecret,
      });
    }
    return created.device._id;
  };

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
  ) => keepSecret(await createDevice(db, asAdmin, { name, model, timeZone }));
  const mainEntrance = await lock('Main entrance', 'Europe/Berlin');
  const bikeRoom = await lock('Bike room', 'Europe/Berlin', 'generic-codelock');
  const flat12 = await lock('Flat 1.2', 'Europe/Berlin');
  const lisbonStudio = await lock('Lisbon studio', 'Europe/Lisbon');

  const person = async (email: string, firstName: string, lastName: string, password?: string) =>
    (await addMember(db, asAdmin, { email, firstName, lastName, role: 'user', password })).member._id;
  const sam = await person(DEMO_ACCOUNTS.user.email, 'Sam', 'Resident', DEMO_ACCOUNTS.user.password);
  const ana = await person('ana.cleaner@demo.latchkey.dev', 'Ana', 'Cleaner');
  const ben = await person('ben.caretaker@demo.latchkey.dev', 'Ben', 'Caretaker');
  // The demo's people have confirmed their addresses, as people who use a portal would have.
  await db
    .updateTable('users')
    .set({ email_verified_at: nowIso() })
    .where('id', 'in', [sam, ana, ben])
    .execute();

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
  await registerCard(db, asAdmin, {
    uid: '04A36B12',
    name: 'Blue fob',
    userId: sam,
    validFrom: null,
    validUntil: null,
  });
  await createFingerprint(db, asAdmin, {
    deviceId: mainEntrance,
    userId: ben,
    templateId: '3',
    finger: 'right-index',
    name: '',
    validFrom: null,
    validUntil: null,
  });
  const keyFields = { validFrom: null, validUntil: null };
  await createKey(db, asAdmin, {
    ...keyFields,
    name: 'Main entrance key',
    type: 'physical',
    number: 'M-01',
    userId: ben,
    deviceIds: [mainEntrance],
  });
  await createKey(db, asAdmin, {
    ...keyFields,
    name: "Sam's phone key",
    type: 'digital',
    number: null,
    userId: sam,
    deviceIds: [flat12],
  });
  await createCompanyCode(db, asAdmin, { name: 'Parcel delivery', code: '13579', ...keyFields });
  await createCodeLock(db, asAdmin, { name: 'Garden shed', code: '8642', timeZone: 'Europe/Berlin' });
  // A guest staying from today for two weeks, on the lock's calendar.
  const today = localWallTime(new Date(), 'Europe/Berlin').date;
  await createInvite(db, asAdmin, flat12, {
    name: 'Grace Guest',
    email: 'grace.guest@demo.latchkey.dev',
    phone: '',
    days: [0, 1, 2, 3, 4, 5, 6],
    start: '00:00',
    end: '24:00',
    startDate: today,
    endDate: addDaysToDate(today, 14),
    send: false,
  });

  const officeOwner = await createAccount(
    db,
    { ...DEMO_ACCOUNTS.officeOwner, firstName: 'Omar', lastName: 'Office', portalName: 'Harbor Offices' },
    { timeZone: 'America/New_York', emailVerified: true },
  );
  const offices = await ownedPortalId(db, officeOwner.id);
  const asOfficeOwner: ChangeContext = { portalId: offices, actorUserId: officeOwner.id, ip: '127.0.0.1' };
  await addMember(db, asOfficeOwner, { email: admin.email, firstName: '', lastName: '', role: 'admin' });
  keepSecret(
    await createDevice(db, asOfficeOwner, {
      name: 'Lobby door',
      model: 'latchkey-sim',
      timeZone: 'America/New_York',
    }),
  );

  await createAccount(
    db,
    { ...DEMO_ACCOUNTS.staff, firstName: 'Stella', lastName: 'Staff', portalName: 'Latchkey Support' },
    { platformRole: 'superAdmin', emailVerified: true },
  );

  log.info(
    {
      admin: `${DEMO_ACCOUNTS.admin.email} / ${DEMO_ACCOUNTS.admin.password}`,
      basicUser: `${DEMO_ACCOUNTS.user.email} / ${DEMO_ACCOUNTS.user.password}`,
      platformStaff: `${DEMO_ACCOUNTS.staff.email} / ${DEMO_ACCOUNTS.staff.password}`,
    },
    'demo portal "Demo Apartments" created; sign in with these',
  );
  return connectedLocks;
}

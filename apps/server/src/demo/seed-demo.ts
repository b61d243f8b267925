import { addDaysToDate, localWallTime } from '@latchkey/shared';
import type { FastifyBaseLogger } from 'fastify';
import { seedDemoListing, type DemoRentalParts } from './demo-rentals';
import type { Database } from '../db/database';
import type { ChangeContext } from '../base/http/access';
import { grantDirectAccess, setUserSchedule } from '../features/access/access.service';
import { createDemoAccount } from '../features/auth/accounts';
import { DEMO_RESELLER_ACCOUNTS, seedDemoBills, seedDemoReseller } from './demo-billing';
import { seedRoleHomes } from './seed-role-homes';
import { seedDemoSupport } from './seed-support';
import { seedDemoReports } from './seed-reports';
import { seedDemoBrands } from './seed-content';
import { setAccessCode } from '../features/credentials/access-code.service';
import { createCompanyCode } from '../features/credentials/company-codes.service';
import { createFingerprint } from '../features/credentials/fingerprints.service';
import { createKey } from '../features/credentials/keys.service';
import { registerCard } from '../features/credentials/rfid.service';
import { createInvite } from '../features/invites/invites.service';
import { createCodeLock } from '../features/credentials/code-locks.service';
import { createDevice } from '../features/devices/devices.service';
import { changeGroupLink, createGroup } from '../features/groups/groups.service';
import { findUserById } from '../base/identity/users.repository';
import { answerPortalInvitation, invitePerson } from '../features/invitations/invitations.service';
import type { MailThrottle } from '../base/mail/mail-throttle';
import { seedCatalogue } from '../features/shop/catalogue';
import { seedLapsedSubscription } from '../features/subscriptions/demo-subscription';
import { seedPlatformDemo } from './seed-platform';

/** A demo lock that speaks the device protocol, with the secret it connects with. */
export interface DemoLockSecret {
  deviceId: string;
  name: string;
  secret: string;
}

/** The demo sign-ins; the README and the start-up log give them. */
export const DEMO_ACCOUNTS = {
  admin: { email: 'admin@demo.latchkey.dev', password: 'demo-admin-pass' },
  user: { email: 'user@demo.latchkey.dev', password: 'demo-user-pass' },
  officeOwner: { email: 'office@demo.latchkey.dev', password: 'demo-office-pass' },
  /** Platform staff (superAdmin): the dev mailbox, support sessions. */
  staff: { email: 'staff@demo.latchkey.dev', password: 'demo-staff-pass' },
  /** The admin of a lapsed portal (Riverside Studios): the payment banner, then Upgrade. */
  lapsedAdmin: { email: 'lapsed@demo.latchkey.dev', password: 'demo-lapsed-pass' },
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

/** The demo admin who sends an invitation (the mail goes through the throttle like any). */
async function demoSender(db: Database, context: ChangeContext, throttle: MailThrottle) {
  return { user: (await findUserById(db, context.actorUserId))!, throttle };
}

/** An account of someone who signed up without a portal of their own and confirmed their address. */
function demoAccount(
  db: Database,
  account: { email: string; password: string; firstName: string; lastName: string },
) {
  return createDemoAccount(db, account, { ownPortal: false });
}

/**
 * On first start with an empty database: "Demo Apartments" (Berlin) with locks (one a code lock), a
 * group, a basic user and people with codes, a card, a fingerprint, keys and schedules, a company
 * code and a guest, made through the same services an admin uses (so
 * the change log shows them), and "Harbor Offices" (New York), where the demo admin is also an
 * admin, to show portal switching. Does nothing once anyone has an account.
 */
export async function seedDemoPortal(
  db: Database,
  log: FastifyBaseLogger,
  mail: { publicUrl: string; throttle: MailThrottle },
  /** The app's rental parts (image store, share links); without them no listings are made. */
  rental?: DemoRentalParts,
): Promise<DemoLockSecret[] | null> {
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

  const admin = await createDemoAccount(
    db,
    { ...DEMO_ACCOUNTS.admin, firstName: 'Dana', lastName: 'Admin', portalName: 'Demo Apartments' },
    { timeZone: 'Europe/Berlin' },
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
  ) => keepSecret(await createDevice(db, asAdmin, { name, model, timeZone }, undefined, 'exempt'));
  const mainEntrance = await lock('Main entrance', 'Europe/Berlin');
  const bikeRoom = await lock('Bike room', 'Europe/Berlin', 'generic-codelock');
  const flat12 = await lock('Flat 1.2', 'Europe/Berlin');
  const lisbonStudio = await lock('Lisbon studio', 'Europe/Lisbon');

  // People are added by invitation, as an admin does it. Sam has an account and accepted; Ana and
  // Ben have not answered yet: the codes and cards the portal gave them work all the same.
  const invite = async (
    context: ChangeContext,
    person: { email: string; firstName: string; lastName: string; role?: 'admin' | 'user' },
  ) =>
    (
      await invitePerson(db, context, mail.publicUrl, await demoSender(db, context, mail.throttle), {
        role: 'user',
        groupIds: [],
        deviceIds: [],
        ...person,
      })
    ).member._id;
  const samAccount = await demoAccount(db, { ...DEMO_ACCOUNTS.user, firstName: 'Sam', lastName: 'Resident' });
  const sam = await invite(asAdmin, { email: samAccount.email, firstName: '', lastName: '' });
  await answerPortalInvitation(db, samAccount, portalId, true, '127.0.0.1');
  const ana = await invite(asAdmin, {
    email: 'ana.cleaner@demo.latchkey.dev',
    firstName: 'Ana',
    lastName: 'Cleaner',
  });
  const ben = await invite(asAdmin, {
    email: 'ben.caretaker@demo.latchkey.dev',
    firstName: 'Ben',
    lastName: 'Caretaker',
  });

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
  await createCodeLock(
    db,
    asAdmin,
    { name: 'Garden shed', code: '8642', timeZone: 'Europe/Berlin' },
    'exempt',
  );
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

  const officeOwner = await createDemoAccount(
    db,
    { ...DEMO_ACCOUNTS.officeOwner, firstName: 'Omar', lastName: 'Office', portalName: 'Harbor Offices' },
    { timeZone: 'America/New_York' },
  );
  const offices = await ownedPortalId(db, officeOwner.id);
  const asOfficeOwner: ChangeContext = { portalId: offices, actorUserId: officeOwner.id, ip: '127.0.0.1' };
  await invite(asOfficeOwner, { email: admin.email, firstName: '', lastName: '', role: 'admin' });
  await answerPortalInvitation(db, admin, offices, true, '127.0.0.1');
  keepSecret(
    await createDevice(
      db,
      asOfficeOwner,
      {
        name: 'Lobby door',
        model: 'latchkey-sim',
        timeZone: 'America/New_York',
      },
      undefined,
      'exempt',
    ),
  );

  await createDemoAccount(
    db,
    { ...DEMO_ACCOUNTS.staff, firstName: 'Stella', lastName: 'Staff', portalName: 'Latchkey Support' },
    { platformRole: 'superAdmin' },
  );

  // --- Commerce demo (issue 13, payments and the shop): begin ---
  // The shop's catalogue, and "Riverside Studios", whose Pro subscription ended for non-payment ten
  // days ago: a lapsed portal (its locks work, nothing can be added) showing the payment banner.
  await seedCatalogue(db);
  const lapsedOwner = await createDemoAccount(
    db,
    { ...DEMO_ACCOUNTS.lapsedAdmin, firstName: 'Riley', lastName: 'River', portalName: 'Riverside Studios' },
    { timeZone: 'Europe/Berlin' },
  );
  const riverside = await ownedPortalId(db, lapsedOwner.id);
  const asRiley: ChangeContext = { portalId: riverside, actorUserId: lapsedOwner.id, ip: '127.0.0.1' };
  await createDevice(
    db,
    asRiley,
    {
      name: 'Studio 1',
      model: 'generic-smartlock',
      timeZone: 'Europe/Berlin',
    },
    undefined,
    'exempt',
  );
  await createDevice(
    db,
    asRiley,
    {
      name: 'Studio 2',
      model: 'generic-smartlock',
      timeZone: 'Europe/Berlin',
    },
    undefined,
    'exempt',
  );
  await seedLapsedSubscription(db, riverside, { plan: 'pro', startedDaysAgo: 70, lapsedDaysAgo: 10 });
  // --- Commerce demo: end ---

  // --- Billing demo (issue 13: bills and resellers): begin ---
  // A reseller with two customer portals, then one past bill per demo portal: last month, closed
  // as the closing job would (demo-billing.ts).
  await seedDemoReseller(db);
  await seedDemoBills(db);
  log.info(
    { reseller: `${DEMO_RESELLER_ACCOUNTS.reseller.email} / ${DEMO_RESELLER_ACCOUNTS.reseller.password}` },
    'demo reseller "Keystone Integrators" created',
  );
  // --- Billing demo: end ---
  // A person who acts in no portal (issue 20, item 2): lands on /app/empty (seed-role-homes.ts).
  await seedRoleHomes(db, mail);
  // Two more customers for the platform console to find (issue 20, item 1: seed-platform.ts).
  await seedPlatformDemo(db);
  // Three weeks of entries and a weekly scheduled report (issue 20, item 5: seed-reports.ts).
  await seedDemoReports(db, DEMO_ACCOUNTS.admin.email);
  // The demo reseller's customers see the Keystone Access brand (issue 20, item 6: seed-content.ts).
  await seedDemoBrands(db);

  // --- Rentals demo (issue 12, R1: listings, requests, stays): begin ---
  // One listing per demo portal, with pictures, arrival instructions, a request waiting for an
  // answer and an approved upcoming stay (its code reaches the simulated locks and is confirmed).
  if (rental) {
    const lockNamed = async (portal: string, name: string) =>
      (
        await db
          .selectFrom('devices')
          .select('id')
          .where('portal_id', '=', portal)
          .where('name', '=', name)
          .executeTakeFirstOrThrow()
      ).id;
    await seedDemoListing(db, rental, {
      context: asAdmin,
      owner: admin,
      throttle: mail.throttle,
      title: 'Bright two rooms by the park',
      category: 'Apartment',
      listing: {
        deviceIds: [flat12, mainEntrance],
        description:
          'Two quiet rooms on the first floor, a small kitchen and a balcony over the park.\nTrams and bakeries around the corner.',
        address: 'Parkstraße 12, 10115 Berlin (first floor, flat 1.2)',
        houseRules: 'No smoking, no parties. Quiet after 22:00.',
        checkInTime: '15:00',
        checkOutTime: '11:00',
        initialTime: 30,
        minNights: 2,
        maxNights: 14,
        // Shown on the request page with the total for the chosen nights (issue 19, item 8).
        nightlyPrice: 9_500,
        currency: 'EUR',
      },
      timeZone: 'Europe/Berlin',
      hue: 32,
      pictures: [
        { room: 'living', alt: 'Living room with a green sofa and a big window' },
        { room: 'bedroom', alt: 'Bedroom with a double bed' },
        { room: 'kitchen', alt: 'Small kitchen with a hob and cupboards' },
      ],
      arrival: [
        {
          deviceId: mainEntrance,
          name: 'Main entrance',
          text: 'The keypad is right of the front door. Enter your code, then press the lock key.',
          parking: 'Street parking; the residents’ courtyard is not for guests.',
        },
        {
          deviceId: flat12,
          name: 'Flat 1.2',
          text: 'First floor, left. The same code opens the flat door.',
          wifiName: 'Park-Flat',
          wifiPassword: 'sunny-balcony-12',
        },
      ],
      cleaner: 'Cleaning crew',
      pending: {
        name: 'Lena Traveller',
        email: 'lena.traveller@demo.latchkey.dev',
        inDays: 21,
        nights: 3,
        note: 'Arriving by train around six.',
      },
      upcoming: { name: 'Marco Visitor', email: 'marco.visitor@demo.latchkey.dev', inDays: 4, nights: 4 },
      // R2: an Airbnb reservation arriving today (imported from a bundled calendar), a reviewed past
      // stay with the owner's answer, blocked nights; the export feed's address is on the listing.
      calendar: {
        feed: {
          name: 'Airbnb',
          url: 'https://www.airbnb.com/calendar/ical/40123456.ics?s=demo0000000000000000',
          guest: 'Airbnb guest',
          nights: 2,
        },
        reviewed: {
          name: 'Sofia Reviewer',
          email: 'sofia.reviewer@demo.latchkey.dev',
          rating: 5,
          text: 'Bright, quiet and spotless. The code worked on both doors from the first minute.',
          answer: 'Thank you, Sofia! Come back in spring when the park is green.',
        },
        block: { inDays: 30, nights: 3, note: 'Painting the bedroom' },
      },
    });
    await seedDemoListing(db, rental, {
      context: asOfficeOwner,
      owner: officeOwner,
      throttle: mail.throttle,
      title: 'Harbor guest office',
      category: 'Office',
      listing: {
        deviceIds: [await lockNamed(offices, 'Lobby door')],
        description: 'A quiet desk room for visiting colleagues, with a view of the harbor.',
        address: '1 Harbor Plaza, New York, NY',
        checkInTime: '09:00',
        checkOutTime: '18:00',
        maxNights: 5,
      },
      timeZone: 'America/New_York',
      hue: 205,
      pictures: [{ room: 'office', alt: 'Desk room with a window over the harbor' }],
      arrival: [],
      pending: {
        name: 'Priya Partner',
        email: 'priya.partner@demo.latchkey.dev',
        inDays: 10,
        nights: 2,
        note: '',
      },
      upcoming: { name: 'Tom Temp', email: 'tom.temp@demo.latchkey.dev', inDays: 2, nights: 1 },
    });
    await seedDemoListing(db, rental, {
      context: asRiley,
      owner: lapsedOwner,
      throttle: mail.throttle,
      title: 'Riverside studio',
      category: 'Studio',
      listing: { deviceIds: [await lockNamed(riverside, 'Studio 1')], minNights: 1, maxNights: 30 },
      timeZone: 'Europe/Berlin',
      hue: 150,
      pictures: [{ room: 'bedroom', alt: 'Studio with a bed by the river window' }],
      arrival: [],
      pending: {
        name: 'Rosa Reader',
        email: 'rosa.reader@demo.latchkey.dev',
        inDays: 14,
        nights: 2,
        note: '',
      },
      upcoming: { name: 'Ivo Island', email: 'ivo.island@demo.latchkey.dev', inDays: 6, nights: 3 },
    });
  }
  // --- Rentals demo: end ---
  // Support requests with a reply and a photo (issue 20, item 4: seed-support.ts).
  await seedDemoSupport(
    db,
    { admin: DEMO_ACCOUNTS.admin.email, user: DEMO_ACCOUNTS.user.email, staff: DEMO_ACCOUNTS.staff.email },
    rental?.supportImages,
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

import type { ContentPageInput } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import { findPage, savePageVersion } from './content.repository';

// The pages every deployment needs from its first start (the sign-in page and the shop link to
// the legal ones; /app/help lists the help topics). Written once as version 1 by no one; staff
// edit them in CMS mode afterwards, and a deployment's own edits are never overwritten.

export const DEFAULT_PAGES: Record<string, ContentPageInput> = {
  terms: {
    title: 'Terms of use',
    section: 'legal',
    published: true,
    body: `# Terms of use

These terms apply to everyone who uses this Latchkey portal: the people who run a portal, the
people they give access to, and guests who open a lock with a code or a link.

## The service

Latchkey is open-source software for managing smart locks and who may open them. The operator of
this installation (see the [imprint](/info/imprint)) runs it and is responsible for it. Latchkey
sends your access rules to your locks; the locks decide on their own, even when they are offline.

## Your account

- Keep your password to yourself and turn on two-factor sign-in for accounts that administer a portal.
- You are responsible for who you give access to. Removing a person or a code takes effect on a lock
  as soon as the lock is connected; the sync screens show which locks have confirmed a change.
- Do not try to open locks you were not given access to, or to reach another portal's data.

## Payments

Paid plans are billed per lock and month, as shown on the billing screen before you confirm. You
can cancel at the end of any period; locks keep working with the Free plan's limits.

## Availability

We work to keep the portal available, but locks never depend on it to open for people who already
have access. Planned maintenance is announced in the portal.

## Changes

When these terms change, the new version is published here with its date and, for material
changes, announced by mail to portal owners.
`,
  },
  privacy: {
    title: 'Privacy notice',
    section: 'legal',
    published: true,
    body: `# Privacy notice

This notice explains which personal data this Latchkey portal processes, why, and for how long.

## What we process

- **Your account:** name, email address, password (stored only as an argon2id hash), two-factor
  settings and your portals.
- **Access data:** which locks you may open and when, your codes, cards and keys, and the lock events
  they cause (who opened which door, when, and how).
- **Billing data:** the billing address and VAT number of a portal; card data never reaches us, it
  is handled by the payment provider.
- **Technical data:** IP addresses in the change log and sign-in protection, kept for 90 days.

## Why

To run the locks you manage (contract), to keep the portal secure (legitimate interest), and to
issue invoices (legal obligation). We do not sell data and show no advertising.

## Who sees it

The admins of a portal see its people and lock events. Platform staff see data only to support
you, and every support session is recorded and shown to the portal's admins.

## Your rights

You may ask for a copy of your data, its correction or deletion, and object to processing. Write to
the contact in the [imprint](/info/imprint). You may also complain to your data-protection authority.
`,
  },
  imprint: {
    title: 'Imprint',
    section: 'legal',
    published: true,
    body: `# Imprint

**Latchkey Project**
Example Street 1
10115 Berlin, Germany

Email: hello@latchkey.example
Represented by the project's maintainers.

Latchkey is open-source software. The operator of an installation is responsible for its content;
replace this page with your own details in CMS mode.
`,
  },
  'help-getting-started': {
    title: 'Getting started',
    section: 'help',
    published: true,
    body: `# Getting started

1. **Add your first lock.** Open *Locks*, choose *Add lock* and enter the device id and secret
   printed on the lock (or in its app).
2. **Invite people.** Open *People*, choose *Add person* and pick the locks or groups they may open.
   They receive a mail with a link to set their password.
3. **Give codes and cards.** On a person's page, add an access code, an RFID card or a fingerprint.
4. **Check the sync.** The lock's *Sync* tab shows when the lock has confirmed every change.

Basic users see only their own locks, their code and a QR code under *My locks*.
`,
  },
  'help-schedules': {
    title: 'Schedules and groups',
    section: 'help',
    published: true,
    body: `# Schedules and groups

A **group** gives a set of people access to a set of locks at once: add the cleaning team to the
*Back office* group and they open every back-office door.

A **schedule** limits when a person may open a lock: weekly windows in the lock's own time zone,
with an optional first and last day. A window that starts in the evening and ends after midnight
belongs to the day it starts.

**Lockouts** close a set of locks for a period (a holiday, a renovation). Admins can be exempt.
`,
  },
  'help-offline-locks': {
    title: 'When a lock is offline',
    section: 'help',
    published: true,
    body: `# When a lock is offline

A lock keeps its last confirmed list of who may enter and decides on its own, so people with
access still get in while it is offline. Changes you make wait until the lock reconnects.

- The *Offline* screen lists locks that have not been heard from.
- Check the lock's power and battery, and its network connection.
- A basic user can carry an update to the lock with *Bring my access* on their phone.
`,
  },
  'help-rentals': {
    title: 'Rentals and guests',
    section: 'help',
    published: true,
    body: `# Rentals and guests

Publish a **listing** for a property, share its request link, and approve stays. An approved stay
creates a guest code valid exactly for the stay, on every lock of the listing.

Guests receive their code and arrival instructions by mail once every lock has confirmed it.
Imported calendars (Airbnb, Vrbo, Booking.com) block the nights booked elsewhere.
`,
  },
};

/** Writes each default page that does not exist yet (a second server starting at once is harmless). */
export async function ensureDefaultPages(db: Database): Promise<void> {
  for (const [topic, page] of Object.entries(DEFAULT_PAGES)) {
    if (await findPage(db, topic)) continue;
    try {
      await db
        .transaction()
        .execute((trx) =>
          savePageVersion(trx, { topic, ...page, savedBy: null, savedAt: nowIso(), restoredFrom: null }),
        );
    } catch (error) {
      // Another server wrote it first (the topic is the primary key): theirs stands.
      if (!(await findPage(db, topic))) throw error;
    }
  }
}

import crypto from 'node:crypto';
import type { PlanId } from '@latchkey/shared';
import { loadConfig } from '../config';
import type { Database } from '../db/database';
import { toIso } from '../db/mappers';
import { createDemoAccount } from '../features/auth/accounts';
import { monthBounds, monthOf, previousMonth } from '../features/billing/bill-computation';
import { saveBillingProfile } from '../features/billing/billing.repository';
import { closeDueBills, issuerOf } from '../features/billing/billing.service';
import { recordPlanChange } from '../features/billing/plan-history';
import { createDevice } from '../features/devices/devices.service';
import { createReseller } from '../features/resellers/resellers.service';

/** The demo portals' plans last month (others stay on what they were). */
const DEMO_PLANS: Record<string, PlanId> = {
  // Business: the demo portal runs rentals, which the Business plan includes (issue 19, item 9).
  'Demo Apartments': 'business',
  'Harbor Offices': 'business',
  'Lakeside Clinic': 'pro',
  'Granite Co-working': 'pro',
};

/** Billing details of two demo portals: one billed with German VAT, one outside the EU. */
const DEMO_PROFILES: Record<string, Parameters<typeof saveBillingProfile>[2]> = {
  'Demo Apartments': {
    name: 'Demo Apartments GmbH',
    address_line1: 'Torstraße 1',
    address_line2: '',
    postal_code: '10119',
    city: 'Berlin',
    country: 'DE',
    vat_number: 'DE123456789',
    email: 'billing@demo.latchkey.dev',
  },
  'Harbor Offices': {
    name: 'Harbor Offices LLC',
    address_line1: '1 Harbor Way',
    address_line2: 'Suite 200',
    postal_code: '02110',
    city: 'Boston, MA',
    country: 'US',
    vat_number: null,
    email: null,
  },
};

/** Locks the demo shows as added part-way through last month (the bill lists their days). */
const ADDED_ON_THE_11TH = new Set(['Flat 1.2', 'Lisbon studio', 'Exam room 2']);

/** The reseller demo's sign-ins (README): the reseller, and its customer Lakeside Clinic's owner. */
export const DEMO_RESELLER_ACCOUNTS = {
  reseller: { email: 'reseller@demo.latchkey.dev', password: 'demo-reseller-pass' },
  clinic: { email: 'clinic@demo.latchkey.dev', password: 'demo-clinic-pass' },
} as const;

/**
 * A reseller, Keystone Integrators, with two customer portals: Lakeside Clinic (its owner lets the
 * reseller act in it) and Harbor Offices (billing only). Linked since the start of last month, so
 * last month's bills count for it once seedDemoBills closes them.
 */
export async function seedDemoReseller(db: Database, now = new Date()): Promise<void> {
  const { start } = monthBounds(previousMonth(monthOf(now)).year, previousMonth(monthOf(now)).month);
  const since = start.toISOString();
  const person = await createDemoAccount(
    db,
    {
      ...DEMO_RESELLER_ACCOUNTS.reseller,
      firstName: 'Kim',
      lastName: 'Keystone',
      portalName: 'Keystone Demo Site',
    },
    { timeZone: 'Europe/Berlin' },
  );
  const reseller = await createReseller(db, person, {
    companyName: 'Keystone Integrators',
    country: 'DE',
    vatNumber: null,
  });
  const clinicOwner = await createDemoAccount(
    db,
    {
      ...DEMO_RESELLER_ACCOUNTS.clinic,
      firstName: 'Cleo',
      lastName: 'Clinic',
      portalName: 'Lakeside Clinic',
    },
    { timeZone: 'Europe/Berlin' },
  );
  const clinic = (
    await db
      .selectFrom('portals')
      .select('id')
      .where('owner_user_id', '=', clinicOwner.id)
      .executeTakeFirstOrThrow()
  ).id;
  const asClinic = { portalId: clinic, actorUserId: clinicOwner.id, ip: '127.0.0.1' };
  for (const name of ['Front desk', 'Exam room 1', 'Exam room 2']) {
    await createDevice(
      db,
      asClinic,
      { name, model: 'generic-smartlock', timeZone: 'Europe/Berlin' },
      undefined,
      'exempt',
    );
  }
  const offices = await db
    .selectFrom('portals')
    .select('id')
    .where('name', '=', 'Harbor Offices')
    .executeTakeFirst();
  for (const [portalId, allowActing] of [
    [clinic, true],
    ...(offices ? [[offices.id, false] as const] : []),
  ] as const) {
    await db
      .insertInto('reseller_links')
      .values({
        id: crypto.randomUUID(),
        portal_id: portalId,
        reseller_id: reseller._id,
        allow_acting: allowActing ? 1 : 0,
        linked_at: since,
        unlinked_at: null,
      })
      .execute();
  }
  await db.updateTable('resellers').set({ created_at: since }).where('id', '=', reseller._id).execute();
}

/**
 * One past bill per demo portal: every demo portal and its locks are dated back to the start of
 * last month (a few locks to its 11th), the paying ones were on their plan all month, and last
 * month is closed with the issuer of the configuration (INVOICE_*), as the closing job would.
 */
export async function seedDemoBills(db: Database, now = new Date()): Promise<void> {
  const last = previousMonth(monthOf(now));
  const { start } = monthBounds(last.year, last.month);
  const startIso = start.toISOString();
  const eleventh = new Date(Date.UTC(last.year, last.month - 1, 11, 9, 30)).toISOString();
  const portals = await db.selectFrom('portals').select(['id', 'name', 'created_at']).execute();
  for (const portal of portals) {
    if (toIso(portal.created_at) > startIso) {
      await db.updateTable('portals').set({ created_at: startIso }).where('id', '=', portal.id).execute();
    }
    const devices = await db
      .selectFrom('devices')
      .select(['id', 'name', 'created_at'])
      .where('portal_id', '=', portal.id)
      .execute();
    for (const device of devices) {
      const createdAt = ADDED_ON_THE_11TH.has(device.name) ? eleventh : startIso;
      if (toIso(device.created_at) > createdAt) {
        await db
          .updateTable('devices')
          .set({ created_at: createdAt })
          .where('portal_id', '=', portal.id)
          .where('id', '=', device.id)
          .execute();
      }
    }
    const plan = DEMO_PLANS[portal.name];
    if (plan) {
      await recordPlanChange(db, portal.id, plan, startIso);
      // Paid up (prepaid a year, as the demo portal is), so the paid plan is current, not lapsed.
      await db
        .updateTable('portals')
        .set({ expire_date: new Date(now.getTime() + 365 * 86_400_000).toISOString() })
        .where('id', '=', portal.id)
        .where('expire_date', 'is', null)
        .execute();
    }
  }
  for (const [name, profile] of Object.entries(DEMO_PROFILES)) {
    const portal = portals.find((p) => p.name === name);
    if (portal) await saveBillingProfile(db, portal.id, profile);
  }
  await closeDueBills(db, issuerOf(loadConfig()), now);
}

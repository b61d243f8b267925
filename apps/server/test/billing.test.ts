import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decideVat, formatDate, roundDiv, vatOf, type Bill } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database';
import { computeBill, type BilledDevice } from '../src/features/billing/bill-computation';
import { closeDueBills, closeMonth, issuerOf, type Issuer } from '../src/features/billing/billing.service';
import { recordPlanChange, type PlanPeriod } from '../src/features/billing/plan-history';
import { insertOwnedPortal } from '../src/base/tenancy/portals.repository';
import { addLock, backdatePortal } from './billing-helpers';
import { makeOwner } from './factories';
import { TestApp } from './test-app';

const before = '2025-08-20T08:00:00.000Z';
const lock = (id: string, createdAt: string, deletedAt: string | null = null): BilledDevice => ({
  id,
  name: `Lock ${id}`,
  createdAt,
  deletedAt,
});
const onPro: PlanPeriod[] = [{ plan: 'pro', startsAt: '2025-01-01T00:00:00.000Z', endsAt: null }];
const wholeMonth = (year: number, month: number) => ({
  year,
  month,
  lastDay: 31,
  knownUntil: new Date(Date.UTC(year, month, 1)),
});

describe('bill computation', () => {
  it('bills 3 locks for the first 10 days of a 30-day month and 5 after exactly', () => {
    const devices = [
      lock('a', before),
      lock('b', before),
      lock('c', before),
      lock('d', '2025-09-11T09:30:00.000Z'),
      lock('e', '2025-09-11T17:00:00.000Z'),
    ];
    const bill = computeBill(wholeMonth(2025, 9), devices, onPro, 'EUR');
    expect(bill.lines).toHaveLength(1);
    const [line] = bill.lines;
    // 3 × 10 + 5 × 20 = 130 lock-days; 130 × €4.00 ÷ 30 = €17.333… → €17.33.
    expect(line).toMatchObject({
      plan: 'pro',
      daysInMonth: 30,
      planDays: 30,
      lockDays: 130,
      includedLockDays: 0,
      billableLockDays: 130,
      unitPriceMinor: 400,
      amountMinor: 1733,
    });
    expect(line!.locks.map((l) => [l.deviceId, l.days, l.firstDay, l.lastDay])).toEqual([
      ['a', 30, '2025-09-01', '2025-09-30'],
      ['b', 30, '2025-09-01', '2025-09-30'],
      ['c', 30, '2025-09-01', '2025-09-30'],
      ['d', 20, '2025-09-11', '2025-09-30'],
      ['e', 20, '2025-09-11', '2025-09-30'],
    ]);
    expect(line!.explanation).toContain('130 lock-days over 30 days on Pro');
    expect(line!.explanation).toContain('130 × €4.00 per lock-month ÷ 30 days = €17.33');
    expect(bill.netMinor).toBe(1733);
    // Wholesale: 130 × €2.80 ÷ 30 = €12.133… → €12.13.
    expect(bill.wholesaleMinor).toBe(1213);
  });

  it('counts a lock on the days at whose end it existed', () => {
    const devices = [
      lock('added-on-5th', '2025-09-05T23:59:00.000Z'),
      lock('deleted-on-5th', before, '2025-09-05T10:00:00.000Z'),
      // Deleted at midnight after the 5th: it was there at the end of the 5th.
      lock('deleted-at-midnight', before, '2025-09-06T00:00:00.000Z'),
      lock('same-day', '2025-09-07T08:00:00.000Z', '2025-09-07T09:00:00.000Z'),
      lock('after-the-month', '2025-10-01T00:00:00.000Z'),
    ];
    const [line] = computeBill(wholeMonth(2025, 9), devices, onPro, 'EUR').lines;
    const days = Object.fromEntries(line!.locks.map((l) => [l.deviceId, l.days]));
    expect(days).toEqual({ 'added-on-5th': 26, 'deleted-on-5th': 4, 'deleted-at-midnight': 5 });
    expect(line!.locks.find((l) => l.deviceId === 'deleted-on-5th')).toMatchObject({
      lastDay: '2025-09-04',
      deleted: true,
    });
  });

  it('prices each day on the plan in force at its end, with the free plan’s included locks', () => {
    const periods: PlanPeriod[] = [
      { plan: 'free', startsAt: '2025-01-01T00:00:00.000Z', endsAt: '2025-09-16T12:00:00.000Z' },
      { plan: 'pro', startsAt: '2025-09-16T12:00:00.000Z', endsAt: '2025-09-26T00:00:00.000Z' },
      { plan: 'business', startsAt: '2025-09-26T00:00:00.000Z', endsAt: null },
    ];
    const devices = [lock('a', before), lock('b', before), lock('c', before)];
    const bill = computeBill(wholeMonth(2025, 9), devices, periods, 'EUR');
    expect(
      bill.lines.map((l) => [l.plan, l.planDays, l.lockDays, l.includedLockDays, l.amountMinor]),
    ).toEqual([
      // Days 1–15: 3 locks a day, 2 of them included, the third at €0.
      ['free', 15, 45, 30, 0],
      // Days 16–25 (the upgrade at noon on the 16th counts for the 16th): 30 × €4.00 ÷ 30.
      ['pro', 10, 30, 0, 400],
      // Days 26–30: 15 × €7.00 ÷ 30 = €3.50.
      ['business', 5, 15, 0, 350],
    ]);
    expect(bill.netMinor).toBe(750);
    expect(bill.lines[0]!.explanation).toContain('30 included (2 locks a day)');
  });

  it('bills so far up to today, and projects today’s locks and plan to the month’s end', () => {
    const now = new Date('2025-09-10T12:00:00.000Z');
    const devices = [
      lock('a', before),
      lock('b', '2025-09-10T08:00:00.000Z'),
      lock('later', '2025-09-20T00:00:00.000Z'),
    ];
    const soFar = computeBill({ year: 2025, month: 9, lastDay: 10, knownUntil: now }, devices, onPro, 'EUR');
    expect(soFar.lines[0]).toMatchObject({ planDays: 10, lockDays: 11 });
    const projection = computeBill(
      { year: 2025, month: 9, lastDay: 30, knownUntil: now },
      devices,
      onPro,
      'EUR',
    );
    // The lock dated later is not known yet; the two of today stay to the end.
    expect(projection.lines[0]).toMatchObject({ planDays: 30, lockDays: 9 + 2 * 21, amountMinor: 680 });
  });

  it('rounds halves up, once per line and once for the VAT', () => {
    expect(roundDiv(5, 2)).toBe(3);
    expect(roundDiv(4, 3)).toBe(1);
    expect(roundDiv(5, 3)).toBe(2);
    expect(vatOf(50, 1900)).toBe(10); // 9.5 → 10
    expect(vatOf(1733, 1900)).toBe(329); // 329.27
    expect(vatOf(1733, 2550)).toBe(442); // 441.915
  });
});

describe('VAT by the buyer', () => {
  it('charges domestic VAT in the issuer’s country, with or without a VAT number', () => {
    expect(decideVat('DE', { country: 'DE', vatNumber: 'DE123456789' })).toMatchObject({
      treatment: 'domestic',
      rateBp: 1900,
    });
    expect(decideVat('DE', { country: null, vatNumber: null })).toMatchObject({ treatment: 'domestic' });
  });

  it('reverse-charges an EU business elsewhere with a VAT number', () => {
    const vat = decideVat('DE', { country: 'FR', vatNumber: 'FR12345678901' });
    expect(vat).toMatchObject({ treatment: 'reverse_charge', rateBp: 0 });
    expect(vat.note).toContain('Reverse charge');
    expect(vat.note).toContain('FR12345678901');
  });

  it('charges an EU consumer elsewhere their country’s rate', () => {
    expect(decideVat('DE', { country: 'FI', vatNumber: null })).toMatchObject({
      treatment: 'eu_consumer',
      rateBp: 2550,
    });
  });

  it('charges no VAT outside the EU, nor when the issuer is outside it', () => {
    expect(decideVat('DE', { country: 'US', vatNumber: null })).toMatchObject({
      treatment: 'outside_eu',
      rateBp: 0,
    });
    expect(decideVat('DE', { country: 'CH', vatNumber: null })).toMatchObject({ treatment: 'outside_eu' });
    expect(decideVat('US', { country: 'DE', vatNumber: null })).toMatchObject({
      treatment: 'not_registered',
      rateBp: 0,
    });
  });
});

let t: TestApp;
let issuer: Issuer;
beforeAll(async () => {
  t = await TestApp.start({ LOGIN_LIMIT_PER_IP: '1000', SIGNUP_LIMIT_PER_IP: '1000' });
  issuer = issuerOf(t.app.config);
});
afterAll(() => t.close());

/** A portal on pro since August 2025 with 3 locks all September and 2 more from the 11th. */
async function portalWithSeptemberLocks() {
  const admin = await makeOwner(t);
  await backdatePortal(t, admin.portalId);
  await recordPlanChange(t.app.db, admin.portalId, 'pro', '2025-08-01T00:00:00Z');
  for (const name of ['Front door', 'Back door', 'Garage']) await addLock(t, admin.portalId, name, before);
  await addLock(t, admin.portalId, 'Flat 1', '2025-09-11T09:30:00.000Z');
  await addLock(t, admin.portalId, 'Flat 2', '2025-09-11T17:00:00.000Z');
  return admin;
}

describe('closing a month', () => {
  it('closes an ended month once into an immutable bill with an invoice number', async () => {
    const admin = await portalWithSeptemberLocks();
    const now = new Date('2025-10-01T00:05:00.000Z');
    const bill = await closeMonth(t.app.db, issuer, admin.portalId, 2025, 9, now);
    expect(bill).toMatchObject({
      status: 'closed',
      netMinor: 1733,
      vat: { treatment: 'domestic', rateBp: 1900 },
      vatMinor: 329,
      totalMinor: 2062,
      currency: 'EUR',
      periodStart: '2025-09-01',
      periodEnd: '2025-09-30',
      issuedAt: now.toISOString(),
      seller: { name: 'Latchkey', country: 'DE' },
    });
    expect(bill.invoiceNumber).toMatch(/^LK-2025-\d{6}$/);
    // Closing again (a second server, a second run) answers the same bill.
    expect(await closeMonth(t.app.db, issuer, admin.portalId, 2025, 9, new Date())).toEqual(bill);
    // A lock added later, billing details changed later: the closed bill stays as issued.
    await addLock(t, admin.portalId, 'Late lock', '2025-09-02T00:00:00.000Z');
    await t.request({
      method: 'POST',
      url: '/api3/portal/billing/profile',
      token: admin.token,
      payload: {
        name: 'Later GmbH',
        addressLine1: 'Weg 1',
        city: 'Wien',
        country: 'AT',
        vatNumber: 'ATU12345678',
      },
    });
    const read = await t.request({ method: 'GET', url: '/api3/portal/billing/2025/9', token: admin.token });
    expect(read.json()).toEqual(bill);
    const audit = await t.app.db
      .selectFrom('audit_log')
      .select(['action', 'after_json'])
      .where('portal_id', '=', admin.portalId)
      .where('action', '=', 'bill.close')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.after_json!)).toMatchObject({
      totalMinor: 2062,
      invoiceNumber: bill.invoiceNumber,
    });
  });

  it('refuses to close a month that has not ended', async () => {
    const admin = await makeOwner(t);
    await expect(
      closeMonth(t.app.db, issuer, admin.portalId, 2025, 9, new Date('2025-09-30T23:59:59.000Z')),
    ).rejects.toMatchObject({ status: 409 });
  });

  it('gives a bill with nothing to pay no invoice number', async () => {
    const admin = await makeOwner(t);
    await backdatePortal(t, admin.portalId);
    await addLock(t, admin.portalId, 'Only door', before);
    const bill = await closeMonth(
      t.app.db,
      issuer,
      admin.portalId,
      2025,
      9,
      new Date('2025-10-02T00:00:00Z'),
    );
    expect(bill).toMatchObject({ totalMinor: 0, invoiceNumber: null, status: 'closed' });
    expect(bill.lines[0]).toMatchObject({ plan: 'free', lockDays: 30, includedLockDays: 30 });
  });

  it('numbers invoices without gaps when servers close at once', async () => {
    const concurrent: Issuer = { ...issuer, prefix: 'CONC' };
    const portals: string[] = [];
    for (let i = 0; i < 10; i++) {
      const admin = await makeOwner(t);
      await backdatePortal(t, admin.portalId);
      // Every third portal stays free: its bill has nothing to pay and takes no number.
      if (i % 3 !== 0) await recordPlanChange(t.app.db, admin.portalId, 'pro', '2025-01-01T00:00:00Z');
      await addLock(t, admin.portalId, 'Door', before);
      portals.push(admin.portalId);
    }
    // A second server on the same database with its own connection pool (PostgreSQL). Servers share
    // only PostgreSQL; on SQLite the one server's closers run at once on its connection.
    const second =
      t.app.dialect === 'postgres'
        ? openDatabase({ databaseUrl: t.app.config.DATABASE_URL, dataDir: t.app.config.DATA_DIR })
        : { db: t.app.db };
    try {
      const now = new Date('2025-11-01T00:00:00.000Z');
      // October 2025 for every portal of the database, from two closing runs and single closes at once.
      const results = await Promise.all([
        closeDueBills(t.app.db, concurrent, now),
        closeDueBills(second.db, concurrent, now),
        ...portals.map((portalId, i) =>
          closeMonth(i % 2 ? t.app.db : second.db, concurrent, portalId, 2025, 10, now),
        ),
      ]);
      expect(results.length).toBe(12);
    } finally {
      if (second.db !== t.app.db) await second.db.destroy();
    }
    const bills = await t.app.db
      .selectFrom('bills')
      .select(['portal_id', 'invoice_number', 'total_minor'])
      .where('year', '=', 2025)
      .where('month', '=', 10)
      .execute();
    // One bill per portal and month.
    expect(new Set(bills.map((b) => b.portal_id)).size).toBe(bills.length);
    for (const portalId of portals) expect(bills.filter((b) => b.portal_id === portalId)).toHaveLength(1);
    const numbers = bills
      .map((b) => b.invoice_number)
      .filter((n): n is string => n !== null)
      .sort();
    expect(numbers.length).toBe(bills.filter((b) => Number(b.total_minor) > 0).length);
    expect(numbers.length).toBeGreaterThanOrEqual(6);
    expect(numbers).toEqual(numbers.map((_, i) => `CONC-2025-${String(i + 1).padStart(6, '0')}`));
  });
});

describe('the closing job', () => {
  it('closes ended months on its own, once', async () => {
    const app = await TestApp.start({ BILLING_CLOSE_INTERVAL_S: '3' });
    try {
      const db = app.app.db;
      const now = new Date().toISOString();
      const userId = crypto.randomUUID();
      const portalId = crypto.randomUUID();
      // Made in the database directly: the job may run three seconds after the start.
      await db
        .insertInto('users')
        .values({
          id: userId,
          email: `closer-${userId.slice(0, 8)}@example.com`,
          password_hash: '',
          first_name: '',
          last_name: '',
          platform_role: null,
          status: 'active',
          email_verified_at: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await insertOwnedPortal(db, { portalId, userId, name: 'Closed by the job', timeZone: 'UTC', now });
      await backdatePortal(app, portalId);
      await recordPlanChange(db, portalId, 'pro', '2025-01-01T00:00:00Z');
      await addLock(app, portalId, 'Door', '2025-01-01T00:00:00.000Z');
      let bills: { year: number; month: number; invoice_number: string | null }[] = [];
      for (let i = 0; i < 60 && bills.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        bills = await db
          .selectFrom('bills')
          .select(['year', 'month', 'invoice_number'])
          .where('portal_id', '=', portalId)
          .execute();
      }
      expect(bills.length).toBeGreaterThan(0);
      // Every month closed at most once (the unique key), the last ended one among them.
      const months = bills.map((b) => `${b.year}-${b.month}`);
      expect(new Set(months).size).toBe(months.length);
      const today = new Date();
      const last =
        today.getUTCMonth() === 0
          ? `${today.getUTCFullYear() - 1}-12`
          : `${today.getUTCFullYear()}-${today.getUTCMonth()}`;
      await expect
        .poll(async () =>
          (
            await db.selectFrom('bills').select(['year', 'month']).where('portal_id', '=', portalId).execute()
          ).map((b) => `${b.year}-${b.month}`),
        )
        .toContain(last);
    } finally {
      await app.close();
    }
  });
});

describe('billing API', () => {
  it('answers a closed month, the past bills and the bill by id to the portal’s admin only', async () => {
    const admin = await portalWithSeptemberLocks();
    const month = await t.request({ method: 'GET', url: '/api3/portal/billing/2025/9', token: admin.token });
    expect(month.statusCode).toBe(200);
    const bill = month.json<Bill>();
    expect(bill).toMatchObject({ status: 'closed', netMinor: 1733, vatMinor: 329, totalMinor: 2062 });
    expect(bill.lines[0]!.locks.map((l) => [l.name, l.days])).toEqual([
      ['Back door', 30],
      ['Front door', 30],
      ['Garage', 30],
      ['Flat 1', 20],
      ['Flat 2', 20],
    ]);

    const past = await t.request({
      method: 'GET',
      url: '/api3/portal/billing/pastBills',
      token: admin.token,
    });
    expect(past.json().items).toEqual([
      expect.objectContaining({
        _id: bill._id,
        year: 2025,
        month: 9,
        totalMinor: 2062,
        invoiceNumber: bill.invoiceNumber,
      }),
    ]);
    const byId = await t.request({
      method: 'GET',
      url: `/api3/portal/billing/bill/${bill._id}`,
      token: admin.token,
    });
    expect(byId.json()).toEqual(bill);

    // Another portal's admin: not found, by id or through the override.
    const stranger = await makeOwner(t);
    for (const url of [
      `/api3/portal/billing/bill/${bill._id}`,
      `/api3/portal/billing/bill/${bill._id}/pdf`,
    ]) {
      const response = await t.request({ method: 'GET', url, token: stranger.token });
      expect(response.statusCode, url).toBe(404);
    }
    const override = await t.request({
      method: 'GET',
      url: '/api3/portal/billing',
      token: stranger.token,
      portal: admin.portalId,
    });
    expect(override.statusCode).toBe(403);
    // A basic user of the portal: no money.
    const member = await makeOwner(t);
    await t.addMember(admin.portalId, member.userId, 'user');
    const basic = await t.request({
      method: 'GET',
      url: '/api3/portal/billing/2025/9',
      token: member.token,
      portal: admin.portalId,
    });
    expect(basic.statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api3/portal/billing/2025/9' })).statusCode).toBe(401);
  });

  it('answers 400 for a month that is not one, 404 before the portal or in the future', async () => {
    const admin = await makeOwner(t);
    await backdatePortal(t, admin.portalId, '2025-03-15T00:00:00.000Z');
    const status = async (url: string) =>
      (await t.request({ method: 'GET', url, token: admin.token })).statusCode;
    expect(await status('/api3/portal/billing/2025/13')).toBe(400);
    expect(await status('/api3/portal/billing/2025/0')).toBe(400);
    expect(await status('/api3/portal/billing/twenty/1')).toBe(400);
    expect(await status('/api3/portal/billing/0x7E9/1')).toBe(400);
    expect(await status('/api3/portal/billing/2025/2')).toBe(404);
    expect(await status('/api3/portal/billing/9999/12')).toBe(404);
    expect(await status('/api3/portal/billing/2025/3')).toBe(200);
    expect(await status(`/api3/portal/billing/bill/${crypto.randomUUID()}`)).toBe(404);
  });

  it('shows the running month so far and its projection', async () => {
    const admin = await makeOwner(t);
    await recordPlanChange(t.app.db, admin.portalId, 'business', '2025-01-01T00:00:00Z');
    await addLock(t, admin.portalId, 'Door', '2025-01-01T00:00:00.000Z');
    const potential = await t.request({
      method: 'GET',
      url: '/api3/portal/billingPotential',
      token: admin.token,
    });
    expect(potential.statusCode).toBe(200);
    const { soFar, projection } = potential.json<{ soFar: Bill; projection: Bill }>();
    const now = new Date();
    expect(soFar).toMatchObject({ status: 'open', projected: false, _id: null, invoiceNumber: null });
    expect(soFar.year).toBe(now.getUTCFullYear());
    expect(soFar.lines[0]!.planDays).toBe(now.getUTCDate());
    expect(projection.projected).toBe(true);
    expect(projection.lines[0]!.planDays).toBe(projection.lines[0]!.daysInMonth);
    // One business lock all month: €7.00 net, €8.33 with 19 % VAT.
    expect(projection).toMatchObject({ netMinor: 700, vatMinor: 133, totalMinor: 833 });

    const overview = await t.request({ method: 'GET', url: '/api3/portal/billing', token: admin.token });
    expect(overview.json()).toMatchObject({
      plan: 'business',
      currency: 'EUR',
      profile: null,
      reseller: null,
      isOwner: true,
      current: { projectedNetMinor: 700, projectedTotalMinor: 833, netMinor: soFar.netMinor },
      pastBills: [],
    });
  });

  it('keeps billing details, checked per country, and applies them to bills not closed yet', async () => {
    const admin = await makeOwner(t);
    await recordPlanChange(t.app.db, admin.portalId, 'pro', '2025-01-01T00:00:00Z');
    await addLock(t, admin.portalId, 'Door', '2025-01-01T00:00:00.000Z');
    const save = (payload: object) =>
      t.request({ method: 'POST', url: '/api3/portal/billing/profile', token: admin.token, payload });
    const base = {
      name: 'Société Exemple SARL',
      addressLine1: '1 rue de la Paix',
      postalCode: '75002',
      city: 'Paris',
    };

    const noPrefix = await save({ ...base, country: 'FR', vatNumber: '12345678901' });
    expect(noPrefix.statusCode).toBe(400);
    expect(noPrefix.json().error.details[0].path).toBe('body.vatNumber');
    expect((await save({ ...base, country: 'US', vatNumber: 'FR12345678901' })).statusCode).toBe(400);
    expect((await save({ ...base, country: 'XX' })).statusCode).toBe(400);
    expect((await save({ ...base, country: 'FR', email: 'not an address' })).statusCode).toBe(400);
    expect((await save({ ...base, name: 'NUL\u0000', country: 'FR' })).statusCode).toBe(400);

    const saved = await save({
      ...base,
      country: 'fr',
      vatNumber: 'fr 123 456 789 01',
      email: 'Billing@Example.FR',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      country: 'FR',
      vatNumber: 'FR12345678901',
      email: 'billing@example.fr',
    });

    const { soFar } = (
      await t.request({ method: 'GET', url: '/api3/portal/billingPotential', token: admin.token })
    ).json();
    expect(soFar.vat.treatment).toBe('reverse_charge');
    expect(soFar.vatMinor).toBe(0);
    expect(soFar.buyer).toMatchObject({
      name: 'Société Exemple SARL',
      addressLines: ['1 rue de la Paix', '75002 Paris'],
      country: 'FR',
      vatNumber: 'FR12345678901',
    });
    // A consumer elsewhere in the EU pays their country's VAT; outside the EU, none.
    await save({ ...base, country: 'FR' });
    const consumer = (
      await t.request({ method: 'GET', url: '/api3/portal/billingPotential', token: admin.token })
    ).json();
    expect(consumer.projection.vat).toMatchObject({ treatment: 'eu_consumer', rateBp: 2000 });
    await save({ ...base, city: 'Zürich', country: 'CH' });
    const swiss = (
      await t.request({ method: 'GET', url: '/api3/portal/billingPotential', token: admin.token })
    ).json();
    expect(swiss.projection).toMatchObject({ vat: { treatment: 'outside_eu' }, vatMinor: 0 });

    const changes = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('portal_id', '=', admin.portalId)
      .where('action', '=', 'billing_profile.update')
      .execute();
    expect(changes).toHaveLength(3);
  });

  it('prints the invoice as a PDF with the right totals', async () => {
    const admin = await portalWithSeptemberLocks();
    const bill = (
      await t.request({ method: 'GET', url: '/api3/portal/billing/2025/9', token: admin.token })
    ).json<Bill>();
    const response = await t.request({
      method: 'GET',
      url: `/api3/portal/billing/bill/${bill._id}/pdf`,
      token: admin.token,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="${bill.invoiceNumber}.pdf"`);
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(response.rawPayload);
    if (text === null) return; // pdftotext (poppler-utils) not installed here; CI installs it
    expect(text).toContain(`Invoice number: ${bill.invoiceNumber}`);
    // The printed page writes the same words (billing-screens.test.tsx): one invoice, one format.
    expect(text).toContain(`Date: ${formatDate(bill.issuedAt!, 'UTC')}`);
    expect(text).toContain('Period: Sep 1, 2025 – Sep 30, 2025 (September 2025)');
    expect(text).toMatch(/Net\s+€17\.33/);
    expect(text).toMatch(/VAT 19 %\s+€3\.29/);
    expect(text).toMatch(/Total\s+€20\.62/);
    expect(text).toContain('Flat 1: 20 days, Sep 11, 2025 – Sep 30, 2025');
    expect(text).toContain('130 × €4.00 per lock-month ÷ 30 days = €17.33');
  });
});

/** The text of a PDF through pdftotext (poppler-utils), or null when it is not installed. */
function pdfText(pdf: Buffer): string | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'latchkey-pdf-'));
  try {
    const file = path.join(dir, 'bill.pdf');
    fs.writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

import crypto from 'node:crypto';
import {
  BILLING_CURRENCY,
  billSchema,
  decideVat,
  vatOf,
  type Bill,
  type BillingOverview,
  type BillingPotential,
  type BillingProfile,
  type BillParty,
  type BillSummary,
  type billingProfileInputSchema,
} from '@latchkey/shared';
import type { FastifyBaseLogger } from 'fastify';
import { PostgresAdapter } from 'kysely';
import type { z } from 'zod';
import type { Config } from '../../config';
import { isUniqueViolation, type Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import type { BillingProfileRow, BillRow, PortalRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { appendAuditEntry, recordChange } from '../../base/audit/audit.repository';
import { findPortalById } from '../../base/tenancy/portals.repository';
import { findCurrentLink, findResellerIdAt } from '../../base/tenancy/reseller-links';
import { computeBill, monthBounds, monthOf, previousMonth, type BillWindow } from './bill-computation';
import {
  findBill,
  findBillingProfile,
  findBillOfMonth,
  insertBill,
  listBilledDevices,
  listBills,
  listPortalsToClose,
  saveBillingProfile,
  takeInvoiceNumber,
} from './billing.repository';
import { currentPlan, listPlanPeriods } from './plan-history';
import { emitDomainEvent } from '../../base/events/domain-events';
import './bill-events';

// Bills (issue 13 item 3). The running month is computed on request; a month that has ended is
// closed once into an immutable bill (the closing job, or the first request for it), with a
// gap-free invoice number per issuer and year when there is something to pay.

/** Who issues the bills (the seller), from the configuration. */
export interface Issuer {
  prefix: string;
  party: BillParty;
}

/** The issuer configured by INVOICE_* (README "Configuration"). */
export function issuerOf(config: Config): Issuer {
  return {
    prefix: config.INVOICE_PREFIX,
    party: {
      name: config.INVOICE_ISSUER_NAME,
      addressLines: config.INVOICE_ISSUER_ADDRESS.split(';')
        .map((line) => line.trim())
        .filter(Boolean),
      country: config.INVOICE_ISSUER_COUNTRY,
      vatNumber: config.INVOICE_ISSUER_VAT_ID || null,
      email: config.INVOICE_ISSUER_EMAIL || null,
    },
  };
}

/** How many past months a closing run looks back for months still open (a server down a while). */
const CLOSE_LOOKBACK_MONTHS = 12;
/** Portals closed per month per query in a closing run. */
const CLOSE_BATCH = 200;

function buyerOf(portal: PortalRow, profile: BillingProfileRow | undefined): BillParty {
  if (!profile) return { name: portal.name, addressLines: [], country: null, vatNumber: null, email: null };
  return {
    name: profile.name,
    addressLines: [
      profile.address_line1,
      profile.address_line2,
      [profile.postal_code, profile.city].filter(Boolean).join(' '),
    ].filter(Boolean),
    country: profile.country,
    vatNumber: profile.vat_number,
    email: profile.email,
  };
}

function toProfile(row: BillingProfileRow): BillingProfile {
  return {
    name: row.name,
    addressLine1: row.address_line1,
    addressLine2: row.address_line2,
    postalCode: row.postal_code,
    city: row.city,
    country: row.country,
    vatNumber: row.vat_number,
    email: row.email,
    updatedAt: toIso(row.updated_at),
  };
}

function toSummary(
  row: Pick<
    BillRow,
    | 'id'
    | 'year'
    | 'month'
    | 'invoice_number'
    | 'issued_at'
    | 'net_minor'
    | 'vat_minor'
    | 'total_minor'
    | 'currency'
  >,
): BillSummary {
  return {
    _id: row.id,
    year: Number(row.year),
    month: Number(row.month),
    invoiceNumber: row.invoice_number,
    issuedAt: toIso(row.issued_at),
    netMinor: Number(row.net_minor),
    vatMinor: Number(row.vat_minor),
    totalMinor: Number(row.total_minor),
    currency: row.currency,
  };
}

/** The bill as it was issued. */
function billOfRow(row: BillRow): Bill {
  return billSchema.parse(JSON.parse(row.bill_json));
}

interface Computed {
  bill: Bill;
  wholesaleMinor: number;
}

/** A month's bill for a portal over a window (whole month, so far, or projected). */
async function computePortalBill(
  db: Database,
  issuer: Issuer,
  portal: PortalRow,
  window: BillWindow,
  options: { projected: boolean; asOf: Date },
): Promise<Computed> {
  const { start, end, days } = monthBounds(window.year, window.month);
  const [devices, periods, profile] = await Promise.all([
    listBilledDevices(db, portal.id, start.toISOString(), end.toISOString()),
    listPlanPeriods(db, portal.id, start.toISOString(), end.toISOString()),
    findBillingProfile(db, portal.id),
  ]);
  const computed = computeBill(window, devices, periods, BILLING_CURRENCY);
  const buyer = buyerOf(portal, profile);
  const vat = decideVat(issuer.party.country!, buyer);
  const vatMinor = vatOf(computed.netMinor, vat.rateBp);
  const bill: Bill = {
    _id: null,
    portalId: portal.id,
    portalName: portal.name,
    year: window.year,
    month: window.month,
    status: 'open',
    invoiceNumber: null,
    issuedAt: null,
    periodStart: start.toISOString().slice(0, 10),
    periodEnd: new Date(start.getTime() + (days - 1) * 86_400_000).toISOString().slice(0, 10),
    asOf: options.asOf.toISOString(),
    projected: options.projected,
    currency: BILLING_CURRENCY,
    lines: computed.lines,
    netMinor: computed.netMinor,
    vat,
    vatMinor,
    totalMinor: computed.netMinor + vatMinor,
    seller: issuer.party,
    buyer,
  };
  return { bill, wholesaleMinor: computed.wholesaleMinor };
}

/** The running month so far (to `now`) or projected to its end with today's locks and plan. */
export async function runningBill(
  db: Database,
  issuer: Issuer,
  portal: PortalRow,
  now: Date,
  projected: boolean,
): Promise<Computed> {
  const { year, month } = monthOf(now);
  const { start, days } = monthBounds(year, month);
  const today = Math.floor((now.getTime() - start.getTime()) / 86_400_000) + 1;
  return computePortalBill(
    db,
    issuer,
    portal,
    { year, month, lastDay: projected ? days : today, knownUntil: now },
    { projected, asOf: now },
  );
}

function isPostgres(db: Database): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Closes a portal's month into its bill, once: a month already closed answers the bill it has.
 * The month must have ended. Closers of one portal take turns (PostgreSQL: the portal row is
 * locked; SQLite: one writer), the invoice number comes from the issuer's counter in the same
 * transaction, and the unique (portal, year, month) key stops a second closer that got past both.
 */
export async function closeMonth(
  db: Database,
  issuer: Issuer,
  portalId: string,
  year: number,
  month: number,
  now: Date = new Date(),
): Promise<Bill> {
  const { end } = monthBounds(year, month);
  if (end > now) throw AppError.conflict(`${year}-${String(month).padStart(2, '0')} has not ended yet`);
  try {
    return await db.transaction().execute(async (trx) => {
      if (isPostgres(trx)) {
        await trx.selectFrom('portals').select('id').where('id', '=', portalId).forUpdate().execute();
      }
      const existing = await findBillOfMonth(trx, portalId, year, month);
      if (existing) return billOfRow(existing);
      const portal = await findPortalById(trx, portalId);
      if (!portal) throw AppError.notFound('Portal');
      const { bill, wholesaleMinor } = await computePortalBill(
        trx,
        issuer,
        portal,
        { year, month, lastDay: 31, knownUntil: end },
        { projected: false, asOf: end },
      );
      const issuedAt = now.toISOString();
      const number =
        bill.totalMinor > 0
          ? `${issuer.prefix}-${now.getUTCFullYear()}-${String(
              await takeInvoiceNumber(trx, issuer.prefix, now.getUTCFullYear()),
            ).padStart(6, '0')}`
          : null;
      const closed: Bill = {
        ...bill,
        _id: crypto.randomUUID(),
        status: 'closed',
        invoiceNumber: number,
        issuedAt,
      };
      await insertBill(trx, {
        id: closed._id!,
        portal_id: portalId,
        year,
        month,
        invoice_number: number,
        currency: closed.currency,
        net_minor: closed.netMinor,
        vat_rate_bp: closed.vat.rateBp,
        vat_treatment: closed.vat.treatment,
        vat_minor: closed.vatMinor,
        total_minor: closed.totalMinor,
        wholesale_minor: wholesaleMinor,
        reseller_id: await findResellerIdAt(trx, portalId, end.toISOString()),
        bill_json: JSON.stringify(closed),
        issued_at: issuedAt,
      });
      await appendAuditEntry(trx, portalId, {
        actorUserId: null,
        action: 'bill.close',
        entityType: 'bill',
        entityId: closed._id!,
        after: {
          month: `${year}-${String(month).padStart(2, '0')}`,
          invoiceNumber: number,
          netMinor: closed.netMinor,
          vatMinor: closed.vatMinor,
          totalMinor: closed.totalMinor,
          currency: closed.currency,
        },
      });
      await emitDomainEvent(trx, 'BillClosed', { portalId, bill: closed, year, month, now });
      return closed;
    });
  } catch (error) {
    // Another closer won the race between our check and our insert: its bill is the bill.
    if (!isUniqueViolation(error)) throw error;
    const row = await findBillOfMonth(db, portalId, year, month);
    if (!row) throw error;
    return billOfRow(row);
  }
}

/**
 * Closes every month that has ended and is not closed yet, for every portal that existed in it,
 * looking back CLOSE_LOOKBACK_MONTHS. Safe to run on every server at once: each bill is closed once.
 * Answers how many bills it closed.
 */
export async function closeDueBills(
  db: Database,
  issuer: Issuer,
  now: Date,
  log?: FastifyBaseLogger,
): Promise<number> {
  let closed = 0;
  let cursor = previousMonth(monthOf(now));
  for (let i = 0; i < CLOSE_LOOKBACK_MONTHS; i++) {
    const { end } = monthBounds(cursor.year, cursor.month);
    for (;;) {
      const portalIds = await listPortalsToClose(
        db,
        cursor.year,
        cursor.month,
        end.toISOString(),
        CLOSE_BATCH,
      );
      for (const portalId of portalIds) {
        await closeMonth(db, issuer, portalId, cursor.year, cursor.month, now);
        closed += 1;
      }
      if (portalIds.length < CLOSE_BATCH) break;
    }
    cursor = previousMonth(cursor);
  }
  if (closed > 0) log?.info({ closed }, 'billing: closed months into bills');
  return closed;
}

async function requirePortal(db: Database, portalId: string): Promise<PortalRow> {
  const portal = await findPortalById(db, portalId);
  if (!portal) throw AppError.notFound('Portal');
  return portal;
}

/**
 * GET portal/billing/{year}/{month}: a closed month's bill as issued; the running month so far; a
 * month that has ended but is not closed yet is closed now. Months before the portal existed and
 * months to come are 404.
 */
export async function getMonthBill(
  db: Database,
  issuer: Issuer,
  portalId: string,
  year: number,
  month: number,
  now: Date = new Date(),
): Promise<Bill> {
  const closed = await findBillOfMonth(db, portalId, year, month);
  if (closed) return billOfRow(closed);
  const portal = await requirePortal(db, portalId);
  const { start, end } = monthBounds(year, month);
  if (start > now || end <= new Date(toIso(portal.created_at))) throw AppError.notFound('Bill');
  if (end > now) return (await runningBill(db, issuer, portal, now, false)).bill;
  return closeMonth(db, issuer, portalId, year, month, now);
}

/** GET portal/billing/bill/{id}: a closed bill by id (the print layout's historyId). */
export async function getClosedBill(db: Database, portalId: string, billId: string): Promise<Bill> {
  const row = await findBill(db, portalId, billId);
  if (!row) throw AppError.notFound('Bill');
  return billOfRow(row);
}

/** GET portal/billing/pastBills. */
export async function getPastBills(db: Database, portalId: string) {
  return { items: (await listBills(db, portalId)).map(toSummary) };
}

/** GET portal/billingPotential: the running month so far and projected to its end. */
export async function getBillingPotential(
  db: Database,
  issuer: Issuer,
  portalId: string,
  now: Date = new Date(),
): Promise<BillingPotential> {
  const portal = await requirePortal(db, portalId);
  const [soFar, projection] = await Promise.all([
    runningBill(db, issuer, portal, now, false),
    runningBill(db, issuer, portal, now, true),
  ]);
  return { soFar: soFar.bill, projection: projection.bill };
}

/** GET portal/billing: plan, billing details, reseller, this month in totals and recent bills. */
export async function getBillingOverview(
  db: Database,
  issuer: Issuer,
  portalId: string,
  userId: string,
  now: Date = new Date(),
): Promise<BillingOverview> {
  const portal = await requirePortal(db, portalId);
  const [plan, profile, link, potential, past] = await Promise.all([
    currentPlan(db, portalId, now),
    findBillingProfile(db, portalId),
    findCurrentLink(db, portalId),
    getBillingPotential(db, issuer, portalId, now),
    listBills(db, portalId, 12),
  ]);
  return {
    plan,
    currency: BILLING_CURRENCY,
    profile: profile ? toProfile(profile) : null,
    reseller: link
      ? {
          _id: link.reseller_id,
          name: link.reseller_name,
          allowActing: Number(link.allow_acting) === 1,
          linkedAt: toIso(link.linked_at),
        }
      : null,
    isOwner: portal.owner_user_id === userId,
    current: {
      year: potential.soFar.year,
      month: potential.soFar.month,
      netMinor: potential.soFar.netMinor,
      totalMinor: potential.soFar.totalMinor,
      projectedNetMinor: potential.projection.netMinor,
      projectedTotalMinor: potential.projection.totalMinor,
    },
    pastBills: past.map(toSummary),
  };
}

/** GET portal/billing/profile: the portal's billing details (404 before any are saved). */
export async function getBillingProfile(db: Database, portalId: string): Promise<BillingProfile> {
  const row = await findBillingProfile(db, portalId);
  if (!row) throw AppError.notFound('Billing details');
  return toProfile(row);
}

/** POST portal/billing/profile: saves the buyer's details for bills not closed yet; audited. */
export async function updateBillingProfile(
  db: Database,
  context: ChangeContext,
  input: z.output<typeof billingProfileInputSchema>,
): Promise<BillingProfile> {
  return db.transaction().execute(async (trx) => {
    const before = await findBillingProfile(trx, context.portalId);
    await saveBillingProfile(trx, context.portalId, {
      name: input.name,
      address_line1: input.addressLine1,
      address_line2: input.addressLine2,
      postal_code: input.postalCode,
      city: input.city,
      country: input.country,
      vat_number: input.vatNumber,
      email: input.email,
    });
    const after = toProfile((await findBillingProfile(trx, context.portalId))!);
    await recordChange(trx, context, {
      action: 'billing_profile.update',
      entityType: 'billing_profile',
      entityId: context.portalId,
      before: before ? { ...toProfile(before), updatedAt: undefined } : undefined,
      after: { ...after, updatedAt: undefined },
    });
    return after;
  });
}

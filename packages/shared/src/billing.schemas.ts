import { z } from 'zod';
import {
  COUNTRY_CODES,
  isEuCountry,
  isVatNumberOf,
  normalizeVatNumber,
  VAT_TREATMENTS,
  vatPrefixOf,
} from './billing-vat';
import { PLAN_IDS } from './plans';
import { integerParam, lineText } from './safe-input';

// Bills and invoices (issue 13 item 3): a month's bill is computed from the locks the portal had on
// each day and the plan in force on it; at month end it is closed into an immutable bill, with an
// invoice number when there is something to pay. Money: integer minor units with the currency.

/** One lock on a bill line: how many days it counted on that plan. */
export const billLockSchema = z.object({
  deviceId: z.string(),
  name: z.string(),
  days: z.number().int(),
  /** The first and last day (YYYY-MM-DD, UTC) it counted on this line's plan. */
  firstDay: z.iso.date(),
  lastDay: z.iso.date(),
  /** Deleted since (the bill still names it). */
  deleted: z.boolean(),
});
export type BillLock = z.infer<typeof billLockSchema>;

/** A line of a bill: one plan's lock-days in the month, with how the amount was reached. */
export const billLineSchema = z.object({
  plan: z.enum(PLAN_IDS),
  planName: z.string(),
  /** Net price per lock per month on this plan, minor units. */
  unitPriceMinor: z.number().int(),
  daysInMonth: z.number().int(),
  /** The days of the month this plan was in force. */
  planDays: z.number().int(),
  /** Locks × days they counted while this plan was in force. */
  lockDays: z.number().int(),
  /** Lock-days the plan includes at no charge (the free plan's locks). */
  includedLockDays: z.number().int(),
  billableLockDays: z.number().int(),
  /** round(billableLockDays × unitPriceMinor ÷ daysInMonth), halves up. */
  amountMinor: z.number().int(),
  /** How the amount was reached, in words. */
  explanation: z.string(),
  locks: z.array(billLockSchema),
});
export type BillLine = z.infer<typeof billLineSchema>;

/** Seller or buyer on a bill. */
export const billPartySchema = z.object({
  name: z.string(),
  addressLines: z.array(z.string()),
  country: z.string().nullable(),
  vatNumber: z.string().nullable(),
  email: z.string().nullable(),
});
export type BillParty = z.infer<typeof billPartySchema>;

export const vatTreatmentSchema = z.enum(VAT_TREATMENTS);

/** A month's bill: the running one (status open, computed to `asOf`) or a closed one. */
export const billSchema = z.object({
  /** The closed bill's id (the print layout's historyId); null for the running month. */
  _id: z.string().nullable(),
  portalId: z.string(),
  portalName: z.string(),
  year: z.number().int(),
  month: z.number().int().min(1).max(12),
  status: z.enum(['open', 'closed']),
  /** Gap-free per issuer (e.g. LK-2026-000123); null for an open bill or one with nothing to pay. */
  invoiceNumber: z.string().nullable(),
  issuedAt: z.iso.datetime().nullable(),
  /** Days are UTC calendar days; the bill covers periodStart to periodEnd inclusive. */
  periodStart: z.iso.date(),
  periodEnd: z.iso.date(),
  /** What the bill is computed to: the month's end when closed, the moment of asking when open. */
  asOf: z.iso.datetime(),
  /** For an open bill: a projection (today's locks and plan kept to month end) rather than so far. */
  projected: z.boolean(),
  currency: z.string(),
  lines: z.array(billLineSchema),
  netMinor: z.number().int(),
  vat: z.object({ treatment: vatTreatmentSchema, rateBp: z.number().int(), note: z.string() }),
  vatMinor: z.number().int(),
  totalMinor: z.number().int(),
  seller: billPartySchema,
  buyer: billPartySchema,
});
export type Bill = z.infer<typeof billSchema>;

/** A closed bill in the past-bills list. */
export const billSummarySchema = z.object({
  _id: z.string(),
  year: z.number().int(),
  month: z.number().int(),
  invoiceNumber: z.string().nullable(),
  issuedAt: z.iso.datetime(),
  netMinor: z.number().int(),
  vatMinor: z.number().int(),
  totalMinor: z.number().int(),
  currency: z.string(),
});
export type BillSummary = z.infer<typeof billSummarySchema>;

/** GET portal/billing/pastBills: the portal's closed bills, newest first. */
export const pastBillsSchema = z.object({ items: z.array(billSummarySchema) });
export type PastBills = z.infer<typeof pastBillsSchema>;

/** GET portal/billingPotential: this month so far, and projected to its end. */
export const billingPotentialSchema = z.object({ soFar: billSchema, projection: billSchema });
export type BillingPotential = z.infer<typeof billingPotentialSchema>;

/** Path parameters of GET portal/billing/{year}/{month}. */
export const billMonthParamsSchema = z.object({
  year: integerParam({ min: 2000, max: 9999 }),
  month: integerParam({ min: 1, max: 12 }),
});

/** The portal's billing details: the buyer on its bills. */
export const billingProfileSchema = z.object({
  name: z.string(),
  addressLine1: z.string(),
  addressLine2: z.string(),
  postalCode: z.string(),
  city: z.string(),
  country: z.string(),
  vatNumber: z.string().nullable(),
  email: z.string().nullable(),
  updatedAt: z.iso.datetime(),
});
export type BillingProfile = z.infer<typeof billingProfileSchema>;

const optionalLine = (max: number) => lineText().max(max).default('');

/**
 * POST portal/billing/profile: the buyer's details. A VAT number must carry its country's prefix
 * (Greece: EL) and is kept normalized; it makes a business elsewhere in the EU reverse-charged.
 */
export const billingProfileInputSchema = z
  .object({
    name: lineText().min(1, 'is required').max(120),
    addressLine1: lineText().min(1, 'is required').max(120),
    addressLine2: optionalLine(120),
    postalCode: optionalLine(20),
    city: lineText().min(1, 'is required').max(80),
    country: lineText()
      .toUpperCase()
      .refine((c) => COUNTRY_CODES.includes(c), 'must be an ISO country code such as DE or US'),
    vatNumber: lineText()
      .max(20)
      .transform((v) => (v === '' ? null : normalizeVatNumber(v)))
      .nullable()
      .default(null),
    email: z
      .union([z.literal(''), z.email('must be an email address').max(254)])
      .transform((v) => (v === '' ? null : v.toLowerCase()))
      .nullable()
      .default(null),
  })
  .superRefine((profile, ctx) => {
    if (profile.vatNumber === null) return;
    if (!isEuCountry(profile.country)) {
      ctx.addIssue({
        code: 'custom',
        path: ['vatNumber'],
        message: 'only EU VAT numbers are used on bills; leave it empty outside the EU',
      });
    } else if (!isVatNumberOf(profile.vatNumber, profile.country)) {
      ctx.addIssue({
        code: 'custom',
        path: ['vatNumber'],
        message: `must be a VAT number of the billing country, starting with ${vatPrefixOf(profile.country)}`,
      });
    }
  });
export type BillingProfileInput = z.input<typeof billingProfileInputSchema>;

/** The reseller a portal is linked to, as its billing page shows it. */
export const portalResellerSchema = z.object({
  _id: z.string(),
  name: z.string(),
  /** The customer lets the reseller act in the portal (the portal override). */
  allowActing: z.boolean(),
  linkedAt: z.iso.datetime(),
});
export type PortalReseller = z.infer<typeof portalResellerSchema>;

/** GET portal/billing: the portal's plan, billing details, reseller and recent bills. */
export const billingOverviewSchema = z.object({
  plan: z.enum(PLAN_IDS),
  currency: z.string(),
  profile: billingProfileSchema.nullable(),
  reseller: portalResellerSchema.nullable(),
  /** The signed-in person owns the portal: only the owner links or unlinks a reseller. */
  isOwner: z.boolean(),
  /** The running month to now, in totals (details: GET portal/billing/{year}/{month}). */
  current: z.object({
    year: z.number().int(),
    month: z.number().int(),
    netMinor: z.number().int(),
    totalMinor: z.number().int(),
    projectedNetMinor: z.number().int(),
    projectedTotalMinor: z.number().int(),
  }),
  pastBills: z.array(billSummarySchema),
});
export type BillingOverview = z.infer<typeof billingOverviewSchema>;

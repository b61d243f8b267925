import { z } from 'zod';
import { BRAND_IDS } from './content.schemas';
import { emailSchema, newPasswordSchema } from './auth.schemas';
import { COUNTRY_CODES, isEuCountry, isVatNumberOf, normalizeVatNumber, vatPrefixOf } from './billing-vat';
import { PLAN_IDS } from './plans';
import { timeZoneSchema } from './portal.schemas';
import { lineText } from './safe-input';

// Resellers (issue 13 item 5): installers and integrators who sell portals to their customers. A
// reseller account belongs to one person; it owns the customer portals it created or a customer
// linked to it, sees per month what each customer was billed, its wholesale cost and margin, and
// acts in a customer's portal only while the customer allows it.

const companyFields = {
  companyName: lineText().min(1, 'is required').max(120),
  country: lineText()
    .toUpperCase()
    .refine((c) => COUNTRY_CODES.includes(c), 'must be an ISO country code such as DE or US'),
  vatNumber: lineText()
    .max(20)
    .transform((v) => (v === '' ? null : normalizeVatNumber(v)))
    .nullable()
    .default(null),
};

function checkVatNumber(value: { country: string; vatNumber: string | null }, ctx: z.RefinementCtx) {
  if (value.vatNumber === null) return;
  if (!isEuCountry(value.country) || !isVatNumberOf(value.vatNumber, value.country)) {
    ctx.addIssue({
      code: 'custom',
      path: ['vatNumber'],
      message: isEuCountry(value.country)
        ? `must be a VAT number of the country, starting with ${vatPrefixOf(value.country)}`
        : 'only EU VAT numbers are kept; leave it empty outside the EU',
    });
  }
}

/** POST reseller/new: the signed-in person opens a reseller account. */
export const resellerCreateSchema = z.object(companyFields).superRefine(checkVatNumber);
export type ResellerCreate = z.input<typeof resellerCreateSchema>;

/** POST reseller/signup (sealed, public): a new person and their reseller account at once. */
export const resellerSignupSchema = z
  .object({
    email: emailSchema,
    password: newPasswordSchema,
    firstName: lineText().max(80).default(''),
    lastName: lineText().max(80).default(''),
    ...companyFields,
  })
  .superRefine(checkVatNumber);
export type ResellerSignup = z.input<typeof resellerSignupSchema>;

/** A reseller account. */
export const resellerSchema = z.object({
  _id: z.string(),
  name: z.string(),
  country: z.string(),
  vatNumber: z.string().nullable(),
  /** What a customer types on their billing page to link their portal to this reseller. */
  linkCode: z.string(),
  /** The brand the reseller's customers see (features/content); null: the host's. */
  brand: z.enum(BRAND_IDS).nullable(),
  createdAt: z.iso.datetime(),
});
export type Reseller = z.infer<typeof resellerSchema>;

/**
 * GET reseller/mine: whether the signed-in person has a reseller account (null when not), so the
 * app's menu shows the reseller area to resellers on every host, not only on the reseller host.
 */
export const resellerMineSchema = z.object({
  reseller: z.object({ _id: z.string(), name: z.string() }).nullable(),
});
export type ResellerMine = z.infer<typeof resellerMineSchema>;

/** A customer portal of a reseller. */
export const resellerCustomerSchema = z.object({
  portalId: z.string(),
  name: z.string(),
  ownerEmail: z.string(),
  plan: z.enum(PLAN_IDS),
  /** The customer lets the reseller act in the portal. */
  allowActing: z.boolean(),
  linkedAt: z.iso.datetime(),
  /** Paid up now (brief §1: stripe status active or expireDate in the future). */
  current: z.boolean(),
  /** The portal's locks now (deleted ones not counted). */
  lockCount: z.number().int(),
});
export type ResellerCustomer = z.infer<typeof resellerCustomerSchema>;

/** GET reseller: the reseller account and its customers now. */
export const resellerAccountSchema = z.object({
  reseller: resellerSchema,
  customers: z.array(resellerCustomerSchema),
});
export type ResellerAccount = z.infer<typeof resellerAccountSchema>;

/**
 * POST reseller/customer: a portal for a customer, owned by the customer's admin (invited by mail
 * to choose a password); the reseller may act in it until the customer says otherwise.
 */
export const resellerCustomerInputSchema = z.object({
  portalName: lineText().min(1, 'is required').max(80),
  timeZone: timeZoneSchema.default('UTC'),
  adminEmail: emailSchema,
});
export type ResellerCustomerInput = z.input<typeof resellerCustomerInputSchema>;

/** One customer's month in a reseller's billing summary. Margin = billed net − wholesale. */
export const billingSummaryRowSchema = z.object({
  portalId: z.string(),
  portalName: z.string(),
  /** The customer's invoice, once the month is closed. */
  invoiceNumber: z.string().nullable(),
  billedNetMinor: z.number().int(),
  billedTotalMinor: z.number().int(),
  wholesaleMinor: z.number().int(),
  marginMinor: z.number().int(),
});
export type BillingSummaryRow = z.infer<typeof billingSummaryRowSchema>;

/** GET reseller/billingSummary (this month so far) and reseller/billingSummary/{year}/{month}. */
export const billingSummarySchema = z.object({
  year: z.number().int(),
  month: z.number().int(),
  /** open: the running month so far (customers linked now); closed: the customers' closed bills. */
  status: z.enum(['open', 'closed']),
  currency: z.string(),
  /** The first month the reseller existed in (navigation stops there). */
  firstYear: z.number().int(),
  firstMonth: z.number().int(),
  customers: z.array(billingSummaryRowSchema),
  totals: z.object({
    billedNetMinor: z.number().int(),
    billedTotalMinor: z.number().int(),
    wholesaleMinor: z.number().int(),
    marginMinor: z.number().int(),
  }),
});
export type BillingSummary = z.infer<typeof billingSummarySchema>;

/** POST portal/reseller (the portal's owner): link the portal to a reseller by its code. */
export const resellerLinkInputSchema = z.object({
  code: lineText()
    .toUpperCase()
    .transform((c) => c.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^[A-Z0-9]{8}$/, 'must be the 8-character code the reseller gave you')),
  allowActing: z.boolean().default(false),
});
export type ResellerLinkInput = z.input<typeof resellerLinkInputSchema>;

/** POST portal/reseller/acting (the portal's owner): allow or refuse the reseller acting here. */
export const resellerActingInputSchema = z.object({ allowActing: z.boolean() });
export type ResellerActingInput = z.infer<typeof resellerActingInputSchema>;

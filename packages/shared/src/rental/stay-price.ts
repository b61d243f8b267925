import { z } from 'zod';
import { formatMoney } from '../plans';

/**
 * A listing's price (issue 19, item 8): an optional price per night, in integer minor units of its
 * currency, shown on the public request page with the total for the chosen nights. A stay request
 * keeps the total it was quoted. No payment is taken for stays: the host settles with the guest.
 */

/** The currencies a listing may be priced in: each counted in hundredths, as formatMoney writes. */
export const LISTING_CURRENCIES = [
  'EUR',
  'USD',
  'GBP',
  'CHF',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'CAD',
  'AUD',
] as const;
export type ListingCurrency = (typeof LISTING_CURRENCIES)[number];

/** The most a night may cost: 100,000.00 in minor units. */
export const MAX_NIGHTLY_PRICE = 10_000_000;

/** A night's price in minor units (POST listing/new and listing/{id}); null: "Price on request". */
export const nightlyPriceSchema = z
  .number()
  .int('must be in whole cents')
  .min(1, 'must be more than 0')
  .max(MAX_NIGHTLY_PRICE, 'must be at most 100,000 a night');

/** A price per night, as the request page shows it. */
export const stayPriceSchema = z.object({ nightly: z.number().int(), currency: z.string() });
export type StayPrice = z.infer<typeof stayPriceSchema>;

/** The total a stay request was quoted: `nights` × `nightly` = `total`, minor units of `currency`. */
export const stayQuoteSchema = z.object({
  nights: z.number().int(),
  nightly: z.number().int(),
  total: z.number().int(),
  currency: z.string(),
});
export type StayQuote = z.infer<typeof stayQuoteSchema>;

/** The quote for `nights` at `price`, or null when the listing has no price. */
export function quoteStay(price: StayPrice | null, nights: number): StayQuote | null {
  if (!price || nights < 1) return null;
  return { nights, nightly: price.nightly, total: price.nightly * nights, currency: price.currency };
}

/** "€120.00 per night". */
export function describeNightlyPrice(price: StayPrice): string {
  return `${formatMoney(price.nightly, price.currency)} per night`;
}

/** "3 nights × €120.00 = €360.00". */
export function describeQuote(quote: StayQuote): string {
  const nights = quote.nights === 1 ? '1 night' : `${quote.nights} nights`;
  return `${nights} × ${formatMoney(quote.nightly, quote.currency)} = ${formatMoney(quote.total, quote.currency)}`;
}

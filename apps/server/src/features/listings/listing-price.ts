import { LISTING_CURRENCIES, type ListingCurrency, type StayPrice, type StayQuote } from '@latchkey/shared';
import type { ListingRow, StayRow } from '../../db/schema';

/** A listing's stored currency, EUR when unset or no longer offered. */
export function listingCurrency(listing: Pick<ListingRow, 'currency'>): ListingCurrency {
  const currency = listing.currency as ListingCurrency | null;
  return currency && LISTING_CURRENCIES.includes(currency) ? currency : 'EUR';
}

/** A listing's price per night (issue 19, item 8), or null: "Price on request". */
export function listingPrice(listing: Pick<ListingRow, 'nightly_price' | 'currency'>): StayPrice | null {
  if (listing.nightly_price === null || listing.nightly_price === undefined) return null;
  return { nightly: Number(listing.nightly_price), currency: listingCurrency(listing) };
}

/** The total a stay was quoted when asked for, or null (no price then, or not a request). */
export function stayQuote(
  stay: Pick<StayRow, 'quoted_total' | 'quoted_currency'>,
  nights: number,
): StayQuote | null {
  if (stay.quoted_total === null || stay.quoted_total === undefined || !stay.quoted_currency || nights < 1) {
    return null;
  }
  const total = Number(stay.quoted_total);
  return { nights, nightly: Math.round(total / nights), total, currency: stay.quoted_currency };
}

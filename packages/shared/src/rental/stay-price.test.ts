import { describe, expect, it } from 'vitest';
import { describeNightlyPrice, describeQuote, nightlyPriceSchema, quoteStay } from './stay-price';

describe('stay prices', () => {
  it('quotes nights × the nightly price in minor units, and nothing without a price', () => {
    const quote = quoteStay({ nightly: 12_000, currency: 'EUR' }, 3);
    expect(quote).toEqual({ nights: 3, nightly: 12_000, total: 36_000, currency: 'EUR' });
    expect(describeQuote(quote!)).toBe('3 nights × €120.00 = €360.00');
    expect(describeQuote(quoteStay({ nightly: 9_950, currency: 'USD' }, 1)!)).toBe(
      '1 night × $99.50 = $99.50',
    );
    expect(describeNightlyPrice({ nightly: 12_000, currency: 'GBP' })).toBe('£120.00 per night');
    expect(quoteStay(null, 3)).toBeNull();
    expect(quoteStay({ nightly: 100, currency: 'EUR' }, 0)).toBeNull();
  });

  it('takes only whole cents within bounds', () => {
    expect(nightlyPriceSchema.safeParse(12_000).success).toBe(true);
    for (const bad of [0, -100, 12.5, 10_000_001, Number.NaN]) {
      expect(nightlyPriceSchema.safeParse(bad).success, String(bad)).toBe(false);
    }
  });
});

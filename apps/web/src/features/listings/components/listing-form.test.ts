import { describe, expect, it } from 'vitest';
import { initialListingValues, toListingInput, toMinorUnits, validateListing } from './listing-form';

describe('the listing form’s price', () => {
  it('is typed in major units and sent in minor units; empty is "Price on request"', () => {
    expect(toMinorUnits('')).toBeNull();
    expect(toMinorUnits(120)).toBe(12_000);
    expect(toMinorUnits(99.5)).toBe(9_950);
    expect(toMinorUnits('0.29')).toBe(29);
    const values = { ...initialListingValues(), title: 'Flat', deviceIds: ['device-1'] };
    expect(toListingInput({ ...values, nightlyPrice: 120, currency: 'GBP' })).toMatchObject({
      nightlyPrice: 12_000,
      currency: 'GBP',
    });
    expect(toListingInput(values)).toMatchObject({ nightlyPrice: null, currency: 'EUR' });
  });

  it('says what is wrong with a price before sending it', () => {
    const values = { ...initialListingValues(), title: 'Flat', deviceIds: ['device-1'] };
    expect(validateListing({ ...values, nightlyPrice: 0 }).nightlyPrice).toMatch(/more than 0/);
    expect(validateListing({ ...values, nightlyPrice: 200_000 }).nightlyPrice).toMatch(/at most 100,000/);
    expect(validateListing({ ...values, nightlyPrice: 120 }).nightlyPrice).toBeUndefined();
  });
});

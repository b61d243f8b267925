import { describe, expect, it } from 'vitest';
import { FINGER_LABELS } from './credential-labels';
import { checkValidity, validityInput, validityState } from './validity';

describe('validityState', () => {
  const now = Date.parse('2026-06-01T12:00:00Z');
  it('is active without limits or inside them, upcoming before, expired after', () => {
    expect(validityState({ validFrom: null, validUntil: null }, now)).toBe('active');
    expect(
      validityState({ validFrom: '2026-01-01T00:00:00Z', validUntil: '2027-01-01T00:00:00Z' }, now),
    ).toBe('active');
    expect(validityState({ validFrom: '2026-07-01T00:00:00Z', validUntil: null }, now)).toBe('upcoming');
    expect(validityState({ validFrom: null, validUntil: '2026-06-01T12:00:00Z' }, now)).toBe('expired');
  });
});

describe('validity form values', () => {
  it('sends empty fields as null and filled ones with the browser offset', () => {
    const input = validityInput({ validFrom: '2030-01-10T09:00', validUntil: '' });
    expect(input.validUntil).toBeNull();
    expect(new Date(input.validFrom!).getTime()).toBe(new Date(2030, 0, 10, 9, 0).getTime());
  });

  it('names malformed times and an end before the start in the form’s words', () => {
    expect(checkValidity({ validFrom: 'soon', validUntil: '' }, {})).toEqual({
      validFrom: 'Valid from must be a date and time',
    });
    expect(
      checkValidity({ validFrom: '', validUntil: '' }, { validUntil: 'Valid until must be after validFrom' }),
    ).toEqual({ validUntil: 'Valid until must be after valid from' });
  });
});

describe('FINGER_LABELS', () => {
  it('reads as people say it', () => {
    expect(FINGER_LABELS['right-index']).toBe('Right index');
    expect(FINGER_LABELS['left-little']).toBe('Left little');
  });
});

import { describe, expect, it } from 'vitest';
import { isoToLocalInput, localInputToIso, toOffsetIso } from './local-datetime';

describe('local date-times', () => {
  it('reads a datetime-local value on the browser clock and writes ISO with its offset', () => {
    const iso = localInputToIso('2026-12-01T09:30');
    expect(iso).toMatch(/^2026-12-01T09:30:00[+-]\d{2}:\d{2}$/);
    expect(new Date(iso!).getTime()).toBe(new Date(2026, 11, 1, 9, 30).getTime());
  });

  it('turns empty or malformed values into null', () => {
    expect(localInputToIso('')).toBeNull();
    expect(localInputToIso('2026-02-31T09:00')).toBeNull();
    expect(localInputToIso('tomorrow')).toBeNull();
  });

  it('shows an instant back as a datetime-local value', () => {
    const date = new Date(2026, 5, 15, 18, 5);
    expect(isoToLocalInput(toOffsetIso(date))).toBe('2026-06-15T18:05');
    expect(isoToLocalInput(date.toISOString())).toBe('2026-06-15T18:05');
    expect(isoToLocalInput(null)).toBe('');
  });
});

import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { instantArb, modelWallTime, zoneArb } from './access.test-helpers';
import { addDaysToDate, localWallTime, nextDate, previousDate, weekdayOfDate } from './local-time';

describe('localWallTime', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads the wall clock on either side of New York and Berlin offset changes', () => {
    // 2026-03-08 New York: 01:59 EST is followed by 03:00 EDT.
    expect(localWallTime(new Date('2026-03-08T06:59:00Z'), 'America/New_York')).toEqual({
      date: '2026-03-08',
      weekday: 0,
      minutes: 119,
    });
    expect(localWallTime(new Date('2026-03-08T07:00:00Z'), 'America/New_York').minutes).toBe(180);
    // 2026-10-25 Berlin: 02:30 happens twice.
    expect(localWallTime(new Date('2026-10-25T00:30:00Z'), 'Europe/Berlin').minutes).toBe(150);
    expect(localWallTime(new Date('2026-10-25T01:30:00Z'), 'Europe/Berlin').minutes).toBe(150);
  });

  it('puts UTC midnight on the right local date and weekday', () => {
    expect(localWallTime(new Date('2026-01-01T00:00:00Z'), 'America/New_York')).toEqual({
      date: '2025-12-31',
      weekday: 3,
      minutes: 19 * 60,
    });
    expect(localWallTime(new Date('2026-01-01T00:00:00Z'), 'Asia/Kathmandu')).toEqual({
      date: '2026-01-01',
      weekday: 4,
      minutes: 5 * 60 + 45,
    });
  });

  it('reads an hour of 24 from the engine as midnight of the date given', () => {
    const original = Intl.DateTimeFormat.prototype.formatToParts;
    vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts').mockImplementation(function (
      this: Intl.DateTimeFormat,
      date,
    ) {
      return original
        .call(this, date)
        .map((part) => (part.type === 'hour' && part.value === '00' ? { ...part, value: '24' } : part));
    });
    expect(localWallTime(new Date('2026-05-05T22:10:00Z'), 'Europe/Berlin')).toEqual({
      date: '2026-05-06',
      weekday: 3,
      minutes: 10,
    });
  });

  it('throws for an unknown zone', () => {
    expect(() => localWallTime(new Date(), 'Mars/Olympus_Mons')).toThrow(RangeError);
  });

  it('agrees with a model built from the zone offset, in every test zone', () => {
    fc.assert(
      fc.property(instantArb, zoneArb, (instant, zone) => {
        expect(localWallTime(new Date(instant), zone)).toEqual(modelWallTime(instant, zone));
      }),
    );
  });
});

describe('calendar date arithmetic', () => {
  it('crosses month, year and leap-day boundaries', () => {
    expect(nextDate('2026-01-31')).toBe('2026-02-01');
    expect(nextDate('2026-12-31')).toBe('2027-01-01');
    expect(previousDate('2026-01-01')).toBe('2025-12-31');
    expect(nextDate('2024-02-28')).toBe('2024-02-29');
    expect(nextDate('2100-02-28')).toBe('2100-03-01');
    expect(previousDate('2000-03-01')).toBe('2000-02-29');
    expect(addDaysToDate('2026-03-07', 2)).toBe('2026-03-09');
    expect(nextDate('0050-12-31')).toBe('0051-01-01');
  });

  it('knows the weekday of a date', () => {
    expect(weekdayOfDate('2026-03-08')).toBe(0);
    expect(weekdayOfDate('2026-03-07')).toBe(6);
    expect(weekdayOfDate('2000-01-01')).toBe(6);
  });

  it('moves forward and back by whole days consistently', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1900-01-01T00:00:00Z'),
          max: new Date('2200-01-01T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: -800, max: 800 }),
        (day, shift) => {
          const date = day.toISOString().slice(0, 10);
          const shifted = addDaysToDate(date, shift);
          expect(addDaysToDate(shifted, -shift)).toBe(date);
          expect(previousDate(nextDate(date))).toBe(date);
          expect(weekdayOfDate(shifted)).toBe((((weekdayOfDate(date) + shift) % 7) + 7) % 7);
        },
      ),
    );
  });
});

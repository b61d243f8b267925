import { describe, expect, it } from 'vitest';
import {
  accessListWindow,
  nightsBetween,
  nightsOf,
  stayAccessWindow,
  staysOverlap,
  zonedInstant,
} from './stay-window';

const lisbon = 'Europe/Lisbon';

describe('zonedInstant', () => {
  it('reads a wall-clock time in summer and in winter', () => {
    expect(zonedInstant('2026-07-10', '15:00', lisbon).toISOString()).toBe('2026-07-10T14:00:00.000Z');
    expect(zonedInstant('2026-12-10', '15:00', lisbon).toISOString()).toBe('2026-12-10T15:00:00.000Z');
    expect(zonedInstant('2026-12-10', '15:00', 'America/New_York').toISOString()).toBe(
      '2026-12-10T20:00:00.000Z',
    );
    expect(zonedInstant('2026-12-10', '00:00', 'UTC').toISOString()).toBe('2026-12-10T00:00:00.000Z');
  });

  it('takes the first of a repeated hour and moves a skipped one past the gap', () => {
    // Lisbon falls back at 02:00 WEST on 2026-10-25 (01:00–02:00 happens twice).
    expect(zonedInstant('2026-10-25', '01:30', lisbon).toISOString()).toBe('2026-10-25T00:30:00.000Z');
    // Lisbon springs forward at 01:00 WET on 2027-03-28 (01:00–02:00 does not exist).
    expect(zonedInstant('2027-03-28', '01:30', lisbon).toISOString()).toBe('2027-03-28T01:30:00.000Z');
    expect(zonedInstant('2027-03-28', '02:00', lisbon).toISOString()).toBe('2027-03-28T01:00:00.000Z');
  });
});

describe('stayAccessWindow', () => {
  const stay = {
    startDate: '2026-10-23',
    endDate: '2026-10-26',
    checkInTime: '15:00',
    checkOutTime: '11:00',
    initialMinutes: 0,
    startTime: null,
    timeZone: lisbon,
  };

  it('runs from check-in to check-out on the wall clock, across a DST change', () => {
    const window = stayAccessWindow(stay);
    expect(window.from.toISOString()).toBe('2026-10-23T14:00:00.000Z'); // 15:00 WEST
    expect(window.until.toISOString()).toBe('2026-10-26T11:00:00.000Z'); // 11:00 WET
  });

  it('starts initialTime earlier, but not before startTime', () => {
    expect(stayAccessWindow({ ...stay, initialMinutes: 120 }).from.toISOString()).toBe(
      '2026-10-23T12:00:00.000Z',
    );
    expect(stayAccessWindow({ ...stay, initialMinutes: 600, startTime: '10:00' }).from.toISOString()).toBe(
      '2026-10-23T09:00:00.000Z',
    );
  });

  it("places someone else's window after check-out", () => {
    const cleaner = accessListWindow(stay, { anchor: 'check_out', startOffset: 0, endOffset: 180 });
    expect(cleaner.from.toISOString()).toBe('2026-10-26T11:00:00.000Z');
    expect(cleaner.until.toISOString()).toBe('2026-10-26T14:00:00.000Z');
    const before = accessListWindow(stay, { anchor: 'check_in', startOffset: -120, endOffset: 0 });
    expect(before.from.toISOString()).toBe('2026-10-23T12:00:00.000Z');
  });
});

describe('nights', () => {
  it('counts nights and sees overlaps, a departure day being free for the next arrival', () => {
    expect(nightsBetween('2026-10-23', '2026-10-26')).toBe(3);
    expect(nightsBetween('2027-03-27', '2027-03-29')).toBe(2);
    expect(nightsOf('2026-10-30', '2026-11-02')).toEqual(['2026-10-30', '2026-10-31', '2026-11-01']);
    const a = { startDate: '2026-10-23', endDate: '2026-10-26' };
    expect(staysOverlap(a, { startDate: '2026-10-26', endDate: '2026-10-28' })).toBe(false);
    expect(staysOverlap(a, { startDate: '2026-10-25', endDate: '2026-10-28' })).toBe(true);
    expect(staysOverlap(a, { startDate: '2026-10-20', endDate: '2026-10-23' })).toBe(false);
    expect(staysOverlap(a, { startDate: '2026-10-20', endDate: '2026-10-30' })).toBe(true);
  });
});

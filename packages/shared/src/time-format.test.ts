import { describe, expect, it } from 'vitest';
import {
  formatCalendarDate,
  formatCalendarRange,
  formatClock,
  formatDate,
  formatDateTime,
  formatMonth,
  formatRange,
  formatTime,
  formatValidity,
  formatWallClock,
  formatWeekday,
  isKnownTimeZone,
  zoneLabel,
} from './time-format';

describe('the one date/time format', () => {
  const instant = '2026-12-17T13:30:00Z';

  it('writes dates, times and both in en-US words on a 24-hour clock', () => {
    expect(formatDate(instant, 'UTC')).toBe('Dec 17, 2026');
    expect(formatTime(instant, 'UTC')).toBe('13:30');
    expect(formatDateTime(instant, 'UTC')).toBe('Dec 17, 2026, 13:30');
    expect(formatDateTime('2026-12-17T00:05:00Z', 'UTC')).toBe('Dec 17, 2026, 00:05');
    expect(formatDateTime(instant, 'UTC', { weekday: true })).toBe('Thu, Dec 17, 2026, 13:30');
    expect(formatDateTime(new Date(instant), 'UTC')).toBe('Dec 17, 2026, 13:30');
  });

  it("reads an instant on the named zone's clock, whatever the machine's zone", () => {
    // The test runs in whatever zone the machine has; the answer must not depend on it.
    expect(formatDateTime(instant, 'Europe/Rome')).toBe('Dec 17, 2026, 14:30');
    expect(formatDateTime(instant, 'America/New_York')).toBe('Dec 17, 2026, 08:30');
    expect(formatDateTime(instant, 'Asia/Tokyo')).toBe('Dec 17, 2026, 22:30');
    // The date changes with the zone too.
    expect(formatDate('2026-12-17T23:30:00Z', 'Asia/Tokyo')).toBe('Dec 18, 2026');
    expect(formatDate('2026-12-17T03:30:00Z', 'America/Los_Angeles')).toBe('Dec 16, 2026');
  });

  it('labels a time with its zone when asked', () => {
    expect(formatTime(instant, 'Europe/Rome', { zone: true })).toBe('14:30 Europe/Rome');
    expect(formatDateTime(instant, 'UTC', { zone: true })).toBe('Dec 17, 2026, 13:30 UTC');
    expect(zoneLabel('Europe/Rome')).toBe('Europe/Rome');
  });

  it('keeps the wall clock right across daylight-saving changes', () => {
    // Europe/Rome springs forward at 02:00 → 03:00 on Mar 29, 2026 (01:00 UTC).
    expect(formatTime('2026-03-29T00:59:00Z', 'Europe/Rome')).toBe('01:59');
    expect(formatTime('2026-03-29T01:00:00Z', 'Europe/Rome')).toBe('03:00');
    // And falls back 03:00 → 02:00 on Oct 25, 2026 (01:00 UTC): 02:30 happens twice.
    expect(formatTime('2026-10-25T00:30:00Z', 'Europe/Rome')).toBe('02:30');
    expect(formatTime('2026-10-25T01:30:00Z', 'Europe/Rome')).toBe('02:30');
    // New York's change on Mar 8, 2026, seen from Rome still on winter time.
    expect(formatTime('2026-03-08T06:59:00Z', 'America/New_York')).toBe('01:59');
    expect(formatTime('2026-03-08T07:00:00Z', 'America/New_York')).toBe('03:00');
    expect(formatTime('2026-03-08T07:00:00Z', 'Europe/Rome')).toBe('08:00');
  });

  it('writes a range once per day, with the label once at the end', () => {
    expect(formatRange('2026-12-17T14:00:00Z', '2026-12-17T17:00:00Z', 'Europe/Rome')).toBe(
      'Dec 17, 2026, 15:00 – 18:00',
    );
    expect(formatRange('2026-12-17T14:00:00Z', '2026-12-19T10:00:00Z', 'Europe/Rome', { zone: true })).toBe(
      'Dec 17, 2026, 15:00 – Dec 19, 2026, 11:00 Europe/Rome',
    );
    // Same UTC day, two days on the lock's clock.
    expect(formatRange('2026-12-17T10:00:00Z', '2026-12-17T16:00:00Z', 'Asia/Tokyo')).toBe(
      'Dec 17, 2026, 19:00 – Dec 18, 2026, 01:00',
    );
  });

  it('writes validity windows in words', () => {
    expect(formatValidity(null, null, 'UTC')).toBe('Always');
    expect(formatValidity('2026-12-17T08:00:00Z', null, 'Europe/Rome', { zone: true })).toBe(
      'From Dec 17, 2026, 09:00 Europe/Rome',
    );
    expect(formatValidity(null, '2026-12-17T08:00:00Z', 'UTC')).toBe('Until Dec 17, 2026, 08:00');
  });

  it('writes calendar dates, months and weekdays without moving them across zones', () => {
    expect(formatCalendarDate('2026-01-05')).toBe('Jan 5, 2026');
    expect(formatCalendarDate('2026-01-05', { weekday: true })).toBe('Mon, Jan 5, 2026');
    expect(formatCalendarDate('not a date')).toBe('not a date');
    expect(formatCalendarRange('2026-12-17', '2026-12-19')).toBe('Dec 17, 2026 – Dec 19, 2026');
    expect(formatMonth(2026, 11)).toBe('November 2026');
    expect(formatWeekday(0)).toBe('Sun');
    expect(formatWeekday(6)).toBe('Sat');
  });

  it('writes stored wall-clock times on the same 24-hour clock', () => {
    expect(formatClock('15:00')).toBe('15:00');
    expect(formatClock('9:05')).toBe('09:05');
    expect(formatClock('15:00:00')).toBe('15:00');
    expect(formatClock(14 * 60 + 30)).toBe('14:30');
    expect(formatClock('15:00', 'Europe/Rome', { zone: true })).toBe('15:00 Europe/Rome');
    expect(formatClock('noon')).toBe('noon');
  });

  it("writes a lock's wall clock now in the API's sortable form", () => {
    expect(formatWallClock('2026-11-23T08:30:00Z', 'Europe/Rome')).toBe('Mon 2026-11-23 09:30');
    expect(formatWallClock('2026-11-23T23:30:00Z', 'Europe/Rome')).toBe('Tue 2026-11-24 00:30');
    expect(formatWallClock('2026-11-23T08:30:00Z', 'Mars/Olympus')).toBe('Mon 2026-11-23 08:30');
    expect(formatWallClock('later', 'UTC')).toBe('—');
  });

  it('falls back to UTC, said in the label, for a zone it does not know, and a dash for no instant', () => {
    expect(isKnownTimeZone('Mars/Olympus')).toBe(false);
    expect(isKnownTimeZone('Europe/Rome')).toBe(true);
    expect(formatDateTime(instant, 'Mars/Olympus', { zone: true })).toBe('Dec 17, 2026, 13:30 UTC');
    expect(formatDateTime('yesterday', 'UTC')).toBe('—');
    expect(formatRange('yesterday', instant, 'UTC')).toBe('—');
  });
});

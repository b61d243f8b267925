import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clockToMinutes, type Schedule, type WeeklyWindow } from './access.schemas';
import {
  dayWindowArb,
  instantArb,
  instantsAtWallTime,
  modelWallTime,
  overnightWindowArb,
  scheduleArb,
  toWindow,
  zoneArb,
} from './access.test-helpers';
import { addDaysToDate } from './local-time';
import { isWithinSchedule } from './schedule';

const NY = 'America/New_York';
const BERLIN = 'Europe/Berlin';
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];
const MINUTE = 60_000;

function only(window: WeeklyWindow, dates: Pick<Schedule, 'startDate' | 'endDate'> = {}): Schedule {
  return { windows: [window], ...dates };
}

function openAt(schedule: Schedule, zone: string, iso: string): boolean {
  return isWithinSchedule(schedule, zone, new Date(iso));
}

/** The UTC minutes in [fromIso, toIso) at which the schedule is open, as ISO strings of the first and last. */
function openMinutes(schedule: Schedule, zone: string, fromIso: string, toIso: string) {
  const open: string[] = [];
  for (let t = Date.parse(fromIso); t < Date.parse(toIso); t += MINUTE) {
    if (isWithinSchedule(schedule, zone, new Date(t))) open.push(new Date(t).toISOString());
  }
  return { count: open.length, first: open[0], last: open.at(-1) };
}

describe('isWithinSchedule: examples', () => {
  const weekdays = only({ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' });

  it('is always open without a schedule', () => {
    expect(isWithinSchedule(null, NY, new Date('2026-03-08T07:30:00Z'))).toBe(true);
  });

  it('opens at start and closes at end (end excluded), on the listed days only', () => {
    // Monday 2026-03-02 in Berlin (CET, UTC+1).
    expect(openAt(weekdays, BERLIN, '2026-03-02T07:59:00Z')).toBe(false);
    expect(openAt(weekdays, BERLIN, '2026-03-02T08:00:00Z')).toBe(true);
    expect(openAt(weekdays, BERLIN, '2026-03-02T15:59:00Z')).toBe(true);
    expect(openAt(weekdays, BERLIN, '2026-03-02T16:00:00Z')).toBe(false);
    // Sunday 2026-03-01.
    expect(openAt(weekdays, BERLIN, '2026-03-01T10:00:00Z')).toBe(false);
  });

  it('uses the local weekday, not the UTC one', () => {
    const monday = only({ days: [1], start: '20:00', end: '24:00' });
    // Monday 2026-03-02 21:00 in New York is Tuesday 02:00 UTC.
    expect(openAt(monday, NY, '2026-03-03T02:00:00Z')).toBe(true);
    expect(openAt(monday, 'UTC', '2026-03-03T02:00:00Z')).toBe(false);
  });

  it('runs an overnight window into the next day, counted on the day it starts', () => {
    const fridayNight = only({ days: [5], start: '22:00', end: '06:00' });
    // Friday 2026-03-06 → Saturday 2026-03-07, UTC.
    expect(openAt(fridayNight, 'UTC', '2026-03-06T21:59:00Z')).toBe(false);
    expect(openAt(fridayNight, 'UTC', '2026-03-06T22:00:00Z')).toBe(true);
    expect(openAt(fridayNight, 'UTC', '2026-03-07T05:59:00Z')).toBe(true);
    expect(openAt(fridayNight, 'UTC', '2026-03-07T06:00:00Z')).toBe(false);
    expect(openAt(fridayNight, 'UTC', '2026-03-07T22:30:00Z')).toBe(false);
    // Friday morning is the tail of Thursday night, which is not listed.
    expect(openAt(fridayNight, 'UTC', '2026-03-06T03:00:00Z')).toBe(false);
  });

  it('treats an end of 00:00 or 24:00 as the midnight that ends the start day', () => {
    for (const end of ['00:00', '24:00']) {
      const evening = only({ days: [5], start: '18:00', end });
      expect(openAt(evening, 'UTC', '2026-03-06T23:59:00Z')).toBe(true);
      expect(openAt(evening, 'UTC', '2026-03-07T00:00:00Z')).toBe(false);
    }
    expect(openAt(only({ days: [5], start: '00:00', end: '24:00' }), 'UTC', '2026-03-06T00:00:00Z')).toBe(
      true,
    );
  });

  it('counts only occurrences that start within the inclusive local dates', () => {
    const nights = only(
      { days: EVERY_DAY, start: '22:00', end: '06:00' },
      {
        startDate: '2026-03-10',
        endDate: '2026-03-12',
      },
    );
    // The tail of the night of the 9th falls on the 10th but started before startDate.
    expect(openAt(nights, 'UTC', '2026-03-10T03:00:00Z')).toBe(false);
    expect(openAt(nights, 'UTC', '2026-03-10T22:00:00Z')).toBe(true);
    // The night of the 12th (endDate) runs into the 13th.
    expect(openAt(nights, 'UTC', '2026-03-13T05:59:00Z')).toBe(true);
    expect(openAt(nights, 'UTC', '2026-03-13T06:00:00Z')).toBe(false);
    expect(openAt(nights, 'UTC', '2026-03-13T22:00:00Z')).toBe(false);
  });

  it('reads startDate and endDate as local dates in the lock zone', () => {
    const fromTenth = only({ days: EVERY_DAY, start: '00:00', end: '24:00' }, { startDate: '2026-03-10' });
    // 2026-03-10T03:00Z is still the 9th in New York, already the 10th in Berlin.
    expect(openAt(fromTenth, NY, '2026-03-10T03:00:00Z')).toBe(false);
    expect(openAt(fromTenth, BERLIN, '2026-03-10T03:00:00Z')).toBe(true);
  });
});

describe('isWithinSchedule: daylight saving, hand-checked', () => {
  const nineToFive = only({ days: EVERY_DAY, start: '09:00', end: '17:00' });

  it('keeps 09:00–17:00 on the New York wall clock across spring forward', () => {
    // Saturday 2026-03-07 is EST (UTC−5): 09:00 = 14:00Z.
    expect(openAt(nineToFive, NY, '2026-03-07T13:59:00Z')).toBe(false);
    expect(openAt(nineToFive, NY, '2026-03-07T14:00:00Z')).toBe(true);
    expect(openAt(nineToFive, NY, '2026-03-07T21:59:00Z')).toBe(true);
    expect(openAt(nineToFive, NY, '2026-03-07T22:00:00Z')).toBe(false);
    // Monday 2026-03-09 is EDT (UTC−4): 09:00 = 13:00Z.
    expect(openAt(nineToFive, NY, '2026-03-09T12:59:00Z')).toBe(false);
    expect(openAt(nineToFive, NY, '2026-03-09T13:00:00Z')).toBe(true);
    expect(openAt(nineToFive, NY, '2026-03-09T20:59:00Z')).toBe(true);
    expect(openAt(nineToFive, NY, '2026-03-09T21:00:00Z')).toBe(false);
  });

  it('keeps 09:00–17:00 on the New York wall clock across fall back', () => {
    // Saturday 2026-10-31 EDT: 09:00 = 13:00Z; Monday 2026-11-02 EST: 09:00 = 14:00Z.
    expect(openAt(nineToFive, NY, '2026-10-31T13:00:00Z')).toBe(true);
    expect(openAt(nineToFive, NY, '2026-10-31T12:59:00Z')).toBe(false);
    expect(openAt(nineToFive, NY, '2026-11-02T13:00:00Z')).toBe(false);
    expect(openAt(nineToFive, NY, '2026-11-02T14:00:00Z')).toBe(true);
  });

  it('keeps 09:00–17:00 on the Berlin wall clock across both changes', () => {
    // CET (UTC+1) before 2026-03-29 and after 2026-10-25, CEST (UTC+2) between.
    expect(openMinutes(nineToFive, BERLIN, '2026-03-28T00:00:00Z', '2026-03-29T00:00:00Z')).toEqual({
      count: 480,
      first: '2026-03-28T08:00:00.000Z',
      last: '2026-03-28T15:59:00.000Z',
    });
    expect(openMinutes(nineToFive, BERLIN, '2026-03-30T00:00:00Z', '2026-03-31T00:00:00Z')).toEqual({
      count: 480,
      first: '2026-03-30T07:00:00.000Z',
      last: '2026-03-30T14:59:00.000Z',
    });
    expect(openAt(nineToFive, BERLIN, '2026-10-26T07:00:00Z')).toBe(false);
    expect(openAt(nineToFive, BERLIN, '2026-10-26T08:00:00Z')).toBe(true);
  });

  it('runs an overnight window over the spring-forward night one hour short', () => {
    const saturdayNight = only({ days: [6], start: '22:00', end: '06:00' });
    // New York: Sat 22:00 EST = 03:00Z, Sun 06:00 EDT = 10:00Z: 7 hours.
    expect(openMinutes(saturdayNight, NY, '2026-03-07T12:00:00Z', '2026-03-08T18:00:00Z')).toEqual({
      count: 7 * 60,
      first: '2026-03-08T03:00:00.000Z',
      last: '2026-03-08T09:59:00.000Z',
    });
    // Berlin: Sat 22:00 CET = 21:00Z, Sun 06:00 CEST = 04:00Z: 7 hours.
    expect(openMinutes(saturdayNight, BERLIN, '2026-03-28T12:00:00Z', '2026-03-29T12:00:00Z')).toEqual({
      count: 7 * 60,
      first: '2026-03-28T21:00:00.000Z',
      last: '2026-03-29T03:59:00.000Z',
    });
  });

  it('runs an overnight window over the fall-back night one hour long', () => {
    const saturdayNight = only({ days: [6], start: '22:00', end: '06:00' });
    // New York: Sat 22:00 EDT = 02:00Z, Sun 06:00 EST = 11:00Z: 9 hours.
    expect(openMinutes(saturdayNight, NY, '2026-10-31T12:00:00Z', '2026-11-01T18:00:00Z')).toEqual({
      count: 9 * 60,
      first: '2026-11-01T02:00:00.000Z',
      last: '2026-11-01T10:59:00.000Z',
    });
    // Berlin: Sat 22:00 CEST = 20:00Z, Sun 06:00 CET = 05:00Z: 9 hours.
    expect(openMinutes(saturdayNight, BERLIN, '2026-10-24T12:00:00Z', '2026-10-25T12:00:00Z')).toEqual({
      count: 9 * 60,
      first: '2026-10-24T20:00:00.000Z',
      last: '2026-10-25T04:59:00.000Z',
    });
  });

  it('closes a window ending inside the skipped hour when the clock jumps past it', () => {
    // Sat 22:00 EST = 03:00Z; at 07:00Z the clock reads 03:00 EDT, past the 02:30 end.
    const saturdayNight = only({ days: [6], start: '22:00', end: '02:30' });
    expect(openAt(saturdayNight, NY, '2026-03-08T06:59:00Z')).toBe(true);
    expect(openAt(saturdayNight, NY, '2026-03-08T07:00:00Z')).toBe(false);
  });

  it('opens a window covering the repeated hour during both occurrences', () => {
    // New York 2026-11-01: 01:00–02:00 is 05:00Z–06:00Z (EDT) and again 06:00Z–07:00Z (EST).
    const oneToTwo = only({ days: [0], start: '01:00', end: '02:00' });
    expect(openAt(oneToTwo, NY, '2026-11-01T05:30:00Z')).toBe(true);
    expect(openAt(oneToTwo, NY, '2026-11-01T06:30:00Z')).toBe(true);
    expect(openMinutes(oneToTwo, NY, '2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z')).toEqual({
      count: 120,
      first: '2026-11-01T05:00:00.000Z',
      last: '2026-11-01T06:59:00.000Z',
    });
    // Berlin 2026-10-25: 02:00–03:00 is 00:00Z–01:00Z (CEST) and again 01:00Z–02:00Z (CET).
    const twoToThree = only({ days: [0], start: '02:00', end: '03:00' });
    expect(openMinutes(twoToThree, BERLIN, '2026-10-24T12:00:00Z', '2026-10-25T12:00:00Z')).toEqual({
      count: 120,
      first: '2026-10-25T00:00:00.000Z',
      last: '2026-10-25T01:59:00.000Z',
    });
  });

  it('never opens a window inside the skipped hour on the spring-forward day', () => {
    const twoToThree = only({ days: EVERY_DAY, start: '02:00', end: '03:00' });
    // New York 2026-03-08 local day: 05:00Z to 04:00Z next day.
    expect(openMinutes(twoToThree, NY, '2026-03-08T05:00:00Z', '2026-03-09T04:00:00Z').count).toBe(0);
    expect(openAt(twoToThree, NY, '2026-03-09T06:30:00Z')).toBe(true);
    // Berlin 2026-03-29 local day: 23:00Z the day before to 22:00Z.
    expect(openMinutes(twoToThree, BERLIN, '2026-03-28T23:00:00Z', '2026-03-29T22:00:00Z').count).toBe(0);
  });
});

describe('isWithinSchedule: properties', () => {
  it('(a) a day window is open exactly when the local wall time is inside it (instants → wall time)', () => {
    fc.assert(
      fc.property(dayWindowArb, zoneArb, instantArb, (window, zone, instant) => {
        const wall = modelWallTime(instant, zone);
        const expected =
          window.days.includes(wall.weekday) && window.start <= wall.minutes && wall.minutes < window.end;
        expect(isWithinSchedule(only(toWindow(window)), zone, new Date(instant))).toBe(expected);
      }),
    );
  });

  it('(a) a day window is open at every instant showing a wall time inside it (wall time → instants)', () => {
    const localDateArb = instantArb.map((instant) => new Date(instant).toISOString().slice(0, 10));
    fc.assert(
      fc.property(
        dayWindowArb,
        zoneArb,
        localDateArb,
        fc.integer({ min: 0, max: 1439 }),
        (window, zone, date, minutes) => {
          const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
          const expected = window.days.includes(weekday) && window.start <= minutes && minutes < window.end;
          // No instant in a gap; two in an overlap, and both must agree.
          for (const instant of instantsAtWallTime(zone, date, minutes)) {
            expect(isWithinSchedule(only(toWindow(window)), zone, new Date(instant))).toBe(expected);
          }
        },
      ),
    );
  });

  it('(b) an overnight window is [start, 24:00) on its days plus [00:00, end) on the following days', () => {
    fc.assert(
      fc.property(
        overnightWindowArb,
        zoneArb,
        instantArb,
        fc.option(fc.integer({ min: -3, max: 3 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
        (window, zone, instant, startShift, length) => {
          const today = modelWallTime(instant, zone).date;
          const startDate = startShift === undefined ? undefined : addDaysToDate(today, startShift);
          const endDate = length === undefined ? undefined : addDaysToDate(today, (startShift ?? 0) + length);
          const at = new Date(instant);
          const evening = only(
            { days: window.days, start: toWindow(window).start, end: '24:00' },
            { startDate, endDate },
          );
          const morningDays = window.days.map((day) => (day + 1) % 7);
          // The morning part started the day before, so its dates shift by one day too.
          const morning = only(
            { days: morningDays, start: '00:00', end: toWindow(window).end },
            {
              startDate: startDate && addDaysToDate(startDate, 1),
              endDate: endDate && addDaysToDate(endDate, 1),
            },
          );
          const expected =
            isWithinSchedule(evening, zone, at) || (window.end > 0 && isWithinSchedule(morning, zone, at));
          expect(isWithinSchedule(only(toWindow(window), { startDate, endDate }), zone, at)).toBe(expected);
        },
      ),
    );
  });

  it('(b) an overnight window matches a wall-clock model over two days', () => {
    fc.assert(
      fc.property(overnightWindowArb, zoneArb, instantArb, (window, zone, instant) => {
        const wall = modelWallTime(instant, zone);
        const expected =
          (window.days.includes(wall.weekday) && wall.minutes >= window.start) ||
          (window.days.includes((wall.weekday + 6) % 7) && wall.minutes < window.end);
        expect(isWithinSchedule(only(toWindow(window)), zone, new Date(instant))).toBe(expected);
      }),
    );
  });

  it('(c) dates only restrict: nothing before startDate, nothing after the last occurrence from endDate', () => {
    const caseArb = fc.tuple(zoneArb, instantArb).chain(([zone, instant]) => {
      const today = modelWallTime(instant, zone).date;
      return fc.tuple(fc.constant(zone), fc.constant(instant), scheduleArb(today));
    });
    fc.assert(
      fc.property(caseArb, ([zone, instant, schedule]) => {
        const at = new Date(instant);
        const wall = modelWallTime(instant, zone);
        const open = isWithinSchedule(schedule, zone, at);
        const undated = isWithinSchedule({ windows: schedule.windows }, zone, at);
        if (open) expect(undated).toBe(true);
        if (schedule.startDate && wall.date < schedule.startDate) expect(open).toBe(false);
        if (schedule.endDate) {
          const dayAfter = addDaysToDate(schedule.endDate, 1);
          const latestTail = Math.max(
            0,
            ...schedule.windows.filter((w) => w.end <= w.start).map((w) => clockToMinutes(w.end)),
          );
          if (wall.date > dayAfter || (wall.date === dayAfter && wall.minutes >= latestTail))
            expect(open).toBe(false);
        }
        // Strictly inside the range (the previous day too), the dates change nothing.
        const inside =
          (!schedule.startDate || wall.date > schedule.startDate) &&
          (!schedule.endDate || wall.date <= schedule.endDate);
        if (inside) expect(open).toBe(undated);
      }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { describeDays, describeSchedule, describeTimes } from './describe-schedule';

describe('describeDays', () => {
  it('names single days, pairs and ranges, Monday first', () => {
    expect(describeDays([1, 2, 3, 4, 5])).toBe('Mon–Fri');
    expect(describeDays([5, 4, 3, 2, 1])).toBe('Mon–Fri');
    expect(describeDays([6, 0])).toBe('Sat, Sun');
    expect(describeDays([0, 1, 3, 5])).toBe('Mon, Wed, Fri, Sun');
    expect(describeDays([3])).toBe('Wed');
    expect(describeDays([0, 1, 2, 3, 4, 5, 6])).toBe('Every day');
  });

  it('runs a range on past Sunday into Monday', () => {
    expect(describeDays([5, 6, 0, 1])).toBe('Fri–Mon');
    expect(describeDays([3, 6, 0, 1])).toBe('Wed, Sat–Mon');
    expect(describeDays([0, 1])).toBe('Mon, Sun');
  });
});

describe('describeTimes', () => {
  it('reads day, overnight, midnight and whole-day windows', () => {
    expect(describeTimes({ start: '09:00', end: '17:00' })).toBe('09:00–17:00');
    expect(describeTimes({ start: '22:00', end: '06:00' })).toBe('22:00–06:00 (overnight)');
    expect(describeTimes({ start: '18:00', end: '24:00' })).toBe('18:00–24:00');
    expect(describeTimes({ start: '18:00', end: '00:00' })).toBe('18:00–24:00');
    expect(describeTimes({ start: '00:00', end: '24:00' })).toBe('all day');
  });
});

describe('describeSchedule', () => {
  it('says "Any time" for no schedule', () => {
    expect(describeSchedule(null)).toBe('Any time');
  });

  it('describes office hours', () => {
    expect(describeSchedule({ windows: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' }] })).toBe(
      'Mon–Fri 09:00–17:00',
    );
  });

  it('joins several windows and adds the dates', () => {
    expect(
      describeSchedule({
        windows: [
          { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' },
          { days: [6], start: '22:00', end: '02:00' },
          { days: [0], start: '00:00', end: '24:00' },
        ],
        startDate: '2026-01-05',
        endDate: '2026-03-01',
      }),
    ).toBe(
      'Mon–Fri 09:00–17:00; Sat 22:00–02:00 (overnight); Sun, all day · from Jan 5, 2026 to Mar 1, 2026',
    );
  });

  it('gives an open-ended date range from one side', () => {
    const windows = [{ days: [0, 1, 2, 3, 4, 5, 6], start: '00:00', end: '24:00' }];
    expect(describeSchedule({ windows, startDate: '2026-12-24' })).toBe(
      'Every day, all day · from Dec 24, 2026',
    );
    expect(describeSchedule({ windows, endDate: '2027-01-02' })).toBe(
      'Every day, all day · until Jan 2, 2027',
    );
  });
});

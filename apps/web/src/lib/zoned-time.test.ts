import { describe, expect, it } from 'vitest';
import { instantAtWallClock, wallClockAt } from './zoned-time';

describe('wallClockAt', () => {
  it('reads the wall clock of another zone', () => {
    const instant = new Date('2026-11-23T14:30:00Z');
    expect(wallClockAt(instant, 'America/New_York')).toBe('2026-11-23T09:30');
    expect(wallClockAt(instant, 'Asia/Tokyo')).toBe('2026-11-23T23:30');
    expect(wallClockAt(instant, 'UTC')).toBe('2026-11-23T14:30');
  });
});

describe('instantAtWallClock', () => {
  it('finds the instant of a local time, in winter and summer', () => {
    expect(instantAtWallClock('2026-11-23T09:30', 'America/New_York')?.toISOString()).toBe(
      '2026-11-23T14:30:00.000Z',
    );
    expect(instantAtWallClock('2026-07-01T09:30', 'America/New_York')?.toISOString()).toBe(
      '2026-07-01T13:30:00.000Z',
    );
    expect(instantAtWallClock('2026-07-01T00:15', 'Asia/Kolkata')?.toISOString()).toBe(
      '2026-06-30T18:45:00.000Z',
    );
  });

  it('takes the first of a repeated hour and jumps past a skipped one', () => {
    // New York falls back at 02:00 EDT on 2026-11-01: 01:30 happens twice.
    expect(instantAtWallClock('2026-11-01T01:30', 'America/New_York')?.toISOString()).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    // It springs forward at 02:00 EST on 2026-03-08: 02:30 never happens.
    expect(instantAtWallClock('2026-03-08T02:30', 'America/New_York')?.toISOString()).toBe(
      '2026-03-08T07:30:00.000Z',
    );
  });

  it('round-trips with wallClockAt and refuses malformed values', () => {
    const local = '2026-02-28T23:59';
    expect(wallClockAt(instantAtWallClock(local, 'Europe/Paris')!, 'Europe/Paris')).toBe(local);
    expect(instantAtWallClock('', 'UTC')).toBeNull();
    expect(instantAtWallClock('2026-02-28 23:59', 'UTC')).toBeNull();
  });
});

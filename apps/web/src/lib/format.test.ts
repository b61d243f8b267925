import { describe, expect, it } from 'vitest';
import { timeZones } from './format';

describe('timeZones', () => {
  it('lists the browser zones and UTC once each, in alphabetical order', () => {
    const zones = timeZones();
    expect(zones).toContain('UTC');
    expect(zones).toContain('Europe/Rome');
    expect(new Set(zones).size).toBe(zones.length);
    expect(zones).toEqual([...zones].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('adds a zone the browser does not list (a value saved elsewhere) in its place, and only to that answer', () => {
    const withOld = timeZones('Asia/Calcutta_Old');
    expect(withOld).toContain('Asia/Calcutta_Old');
    expect(withOld.indexOf('Asia/Calcutta_Old')).toBeGreaterThan(withOld.indexOf('Asia/Baghdad'));
    expect(timeZones()).not.toContain('Asia/Calcutta_Old');
    expect(timeZones('Europe/Rome').filter((zone) => zone === 'Europe/Rome')).toHaveLength(1);
  });

  it('answers a copy: a caller changing its list changes no other', () => {
    timeZones().push('Mars/Olympus');
    expect(timeZones()).not.toContain('Mars/Olympus');
  });
});

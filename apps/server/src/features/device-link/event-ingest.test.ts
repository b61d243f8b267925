import { describe, expect, it } from 'vitest';
import { timeOrderedUuid } from './event-ingest';

describe('timeOrderedUuid', () => {
  it('is a version 7 UUID that sorts by its millisecond', () => {
    const earlier = timeOrderedUuid(Date.parse('2026-11-25T10:00:00.000Z'));
    const later = timeOrderedUuid(Date.parse('2026-11-25T10:00:00.001Z'));
    for (const id of [earlier, later, timeOrderedUuid()]) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    expect(earlier < later).toBe(true);
    expect(new Set(Array.from({ length: 1000 }, () => timeOrderedUuid(0))).size).toBe(1000);
  });
});

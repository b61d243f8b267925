import { describe, expect, it } from 'vitest';
import { inList, powerOfTwoChunks } from './statement-shapes';

describe('statement shapes', () => {
  it('pads an in-list to a power of two with values already in it, without repeats before', () => {
    expect(inList([])).toEqual([]);
    expect(inList(['a'])).toEqual(['a']);
    expect(inList(['a', 'b', 'a', 'c'])).toEqual(['a', 'b', 'c', 'a']);
    for (let n = 1; n <= 70; n++) {
      const values = Array.from({ length: n }, (_, i) => `v${i}`);
      const padded = inList(values);
      expect(Math.log2(padded.length) % 1).toBe(0);
      expect(new Set(padded)).toEqual(new Set(values));
    }
  });

  it('cuts rows into power-of-two chunks of at most the maximum, keeping every row in order', () => {
    expect(powerOfTwoChunks([])).toEqual([]);
    for (let n = 1; n <= 600; n += 7) {
      const rows = Array.from({ length: n }, (_, i) => i);
      const chunks = powerOfTwoChunks(rows, 256);
      expect(chunks.flat()).toEqual(rows);
      for (const chunk of chunks) {
        expect(chunk.length).toBeLessThanOrEqual(256);
        expect(Math.log2(chunk.length) % 1).toBe(0);
      }
    }
  });
});

import { describe, expect, it } from 'vitest';
import { ACCESS_CODE_PATTERN, generateAccessCode, isGuessable } from './access-code';

describe('generateAccessCode', () => {
  it('makes 6 random digits by default', () => {
    const codes = new Set(Array.from({ length: 50 }, () => generateAccessCode()));
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(codes.size).toBeGreaterThan(45);
    expect(generateAccessCode(8)).toMatch(ACCESS_CODE_PATTERN);
  });

  it('knows the obvious guesses', () => {
    expect(isGuessable('000000')).toBe(true);
    expect(isGuessable('123456')).toBe(true);
    expect(isGuessable('987654')).toBe(true);
    expect(isGuessable('890123')).toBe(true);
    expect(isGuessable('482915')).toBe(false);
  });
});

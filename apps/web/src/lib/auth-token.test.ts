import { describe, expect, it } from 'vitest';
import { expiredToken, fakeJwt, validToken } from '@/testing/jwt';
import { getValidToken, isTokenValid, tokenExpiry } from './auth-token';
import { storage } from './storage';

describe('token expiry', () => {
  it('reads exp in seconds', () => {
    expect(tokenExpiry(fakeJwt(1_900_000_000))).toBe(1_900_000_000);
    expect(tokenExpiry('not-a-jwt')).toBeNull();
    expect(tokenExpiry('a.%%%.c')).toBeNull();
  });

  it('counts a token only while exp is later than now', () => {
    const token = fakeJwt(1_000);
    expect(isTokenValid(token, 999_999)).toBe(true);
    expect(isTokenValid(token, 1_000_000)).toBe(false);
    expect(isTokenValid(null)).toBe(false);
  });

  it('treats a stored expired token as signed out', () => {
    storage.setAuthToken(expiredToken());
    expect(getValidToken()).toBeNull();
    const token = validToken();
    storage.setAuthToken(token);
    expect(getValidToken()).toBe(token);
  });
});

import { describe, expect, it } from 'vitest';
import { landingPath, safeRedirectPath, signInPath } from './safe-redirect';

const origin = 'http://localhost:3000';

describe('safeRedirectPath', () => {
  it('accepts same-origin paths', () => {
    expect(safeRedirectPath('/app/profile?tab=1#x', origin)).toBe('/app/profile?tab=1#x');
  });

  it('refuses other origins and odd values', () => {
    for (const value of [
      'https://evil.example/app',
      '//evil.example',
      '/\\evil.example',
      'app/profile',
      '',
      null,
    ]) {
      expect(safeRedirectPath(value, origin)).toBeNull();
    }
  });

  it('refuses paths that would loop back to sign-in', () => {
    expect(safeRedirectPath('/', origin)).toBeNull();
    expect(safeRedirectPath('/auth/logout', origin)).toBeNull();
  });

  it('builds sign-in and landing paths', () => {
    expect(signInPath('/app/dashboard')).toBe('/?redirect=%2Fapp%2Fdashboard');
    expect(landingPath('/app/profile')).toBe('/auth/landing?redirect=%2Fapp%2Fprofile');
    expect(landingPath(null)).toBe('/auth/landing');
  });
});

import { describe, expect, it } from 'vitest';
import { hasRequiredRole, homePathFor } from './authorization';

describe('roles', () => {
  it('lets anyone signed in through when no role is required', () => {
    expect(hasRequiredRole([], undefined)).toBe(true);
    expect(hasRequiredRole(['user'], [])).toBe(true);
  });

  it('counts a superAdmin as an admin', () => {
    expect(hasRequiredRole(['superAdmin'], ['admin'])).toBe(true);
    expect(hasRequiredRole(['admin'], ['superAdmin'])).toBe(false);
    expect(hasRequiredRole(['user'], ['admin'])).toBe(false);
  });

  it('sends admins to the dashboard and basic users to their area', () => {
    expect(homePathFor(['admin'])).toBe('/app/dashboard');
    expect(homePathFor(['superAdmin'])).toBe('/app/dashboard');
    expect(homePathFor(['user'])).toBe('/user');
    expect(homePathFor([])).toBe('/user');
  });

  it('sends everyone to the reseller area on the reseller host', () => {
    expect(homePathFor(['admin'], 'reseller')).toBe('/app/reseller');
    expect(homePathFor(['user'], 'reseller')).toBe('/app/reseller');
    expect(homePathFor(['admin'], 'admin')).toBe('/app/dashboard');
  });
});

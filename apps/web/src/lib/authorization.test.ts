import type { AppRole } from '@latchkey/shared';
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

  const acting = (roles: AppRole[], portal: unknown = { _id: 'p1' }) => ({ roles, portal });

  it('sends admins to the dashboard and basic users to their area', () => {
    expect(homePathFor(acting(['admin']))).toBe('/app/dashboard');
    expect(homePathFor(acting(['superAdmin']))).toBe('/app/dashboard');
    expect(homePathFor(acting(['user']))).toBe('/user');
  });

  it('sends someone who acts in no portal to empty, to choose what to do next', () => {
    expect(homePathFor(acting([], null))).toBe('/app/empty');
    expect(homePathFor(acting(['superAdmin'], null))).toBe('/app/empty');
  });

  it('sends everyone to the reseller area on the reseller host', () => {
    expect(homePathFor(acting(['admin']), 'reseller')).toBe('/app/reseller');
    expect(homePathFor(acting(['user']), 'reseller')).toBe('/app/reseller');
    expect(homePathFor(acting([], null), 'reseller')).toBe('/app/reseller');
    expect(homePathFor(acting(['superAdmin']), 'admin')).toBe('/app/platform');
  });
});

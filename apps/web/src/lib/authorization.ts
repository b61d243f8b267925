import type { AppRole } from '@latchkey/shared';

/**
 * True when a person with `roles` may open something limited to `required`. No requirement
 * means any signed-in person; a superAdmin counts as an admin everywhere.
 */
export function hasRequiredRole(
  roles: readonly AppRole[],
  required: readonly AppRole[] | undefined,
): boolean {
  if (!required || required.length === 0) return true;
  return required.some((role) => roles.includes(role) || (role === 'admin' && roles.includes('superAdmin')));
}

/** Where a signed-in person belongs: admins in the portal dashboard, basic users in their area. */
export function homePathFor(roles: readonly AppRole[]): string {
  return hasRequiredRole(roles, ['admin']) ? '/app/dashboard' : '/user';
}

import type { AppRole, SystemType } from '@latchkey/shared';
import { getSystemType } from './system-type';
import { paths } from '@/config/paths';

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

/**
 * Where a signed-in person belongs: on the reseller host the reseller area; on the admin host the
 * platform console; elsewhere someone who
 * acts in no portal at all on `empty` (what to do next), admins in the portal dashboard, basic
 * users in their area.
 */
export function homePathFor(
  session: { roles: readonly AppRole[]; portal: unknown },
  systemType: SystemType = getSystemType(),
): string {
  if (systemType === 'reseller') return paths.app.reseller.href();
  // The admin host is the platform console's: staff land on it (its sign-in refuses anyone else;
  // in a support session there, staff see the person's own home).
  if (systemType === 'admin' && session.roles.includes('superAdmin')) return paths.app.platform.href();
  if (session.portal === null) return paths.app.empty.href();
  return hasRequiredRole(session.roles, ['admin']) ? paths.app.dashboard.href() : paths.user.home.href();
}

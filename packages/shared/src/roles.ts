/** A person's role inside one portal. */
export const PORTAL_ROLES = ['admin', 'user'] as const;
export type PortalRole = (typeof PORTAL_ROLES)[number];

/** Platform staff: acts as an admin in any portal and alone may use the platform tools. */
export const PLATFORM_ROLES = ['superAdmin'] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];

/** The roles the web's route table and navigation are written against (brief §6). */
export type AppRole = PortalRole | PlatformRole;

/** A membership's state: invited people have not accepted yet; suspended ones may not act. */
export const MEMBERSHIP_STATUSES = ['active', 'invited', 'suspended'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

/**
 * Permissions granted by each role. The brief leaves the list open; these name what the
 * screens check today, and grow with the features (see docs/decisions.md).
 */
export const ROLE_PERMISSIONS: Record<AppRole, readonly string[]> = {
  user: ['profile.edit', 'locks.own'],
  admin: ['profile.edit', 'locks.own', 'portal.edit', 'users.view', 'users.manage', 'audit.view'],
  superAdmin: ['platform.tools', 'portal.any'],
};

/** The permissions of a set of roles, without repeats, in a stable order. */
export function permissionsFor(roles: readonly AppRole[]): string[] {
  return [...new Set(roles.flatMap((role) => ROLE_PERMISSIONS[role]))].sort();
}

import type { Session } from '@latchkey/shared';
import { Outlet, useMatches } from 'react-router';
import { NoAccess } from '@/components/no-access';
import { NoPortal } from '@/components/no-portal';
import { hasRequiredRole, homePathFor } from '@/lib/authorization';
import { deepestHandle } from '../route-handle';

/** Renders the screen only for the roles its route declares; others get a clear "no access". */
export function RoleGate({ session }: { session: Session }) {
  const matches = useMatches();
  const roles = deepestHandle(matches, 'roles');
  const requiresPortal = deepestHandle(matches, 'requiresPortal');
  if (!hasRequiredRole(session.roles, roles)) return <NoAccess homePath={homePathFor(session.roles)} />;
  if (requiresPortal && session.portal === null) return <NoPortal />;
  return <Outlet />;
}

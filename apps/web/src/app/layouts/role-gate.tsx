import type { Session } from '@latchkey/shared';
import { Navigate, Outlet, useMatches } from 'react-router';
import { NoAccess } from '@/components/no-access';
import { featureIsOn, useFeatures } from '@/features/platform/api/get-features';
import { FeatureOff } from '@/features/platform/components/feature-off';
import { paths } from '@/config/paths';
import { hasRequiredRole, homePathFor } from '@/lib/authorization';
import { deepestHandle } from '../route-handle';

/**
 * Renders the screen only for the roles its route declares; others get a clear "no access". A
 * screen that works on a portal sends someone who acts in none to `empty` (what to do next),
 * before any role check: without a portal there is no role to have.
 */
export function RoleGate({ session }: { session: Session }) {
  const matches = useMatches();
  const roles = deepestHandle(matches, 'roles');
  const requiresPortal = deepestHandle(matches, 'requiresPortal');
  const feature = deepestHandle(matches, 'feature');
  const enabled = useFeatures().data?.enabled;
  if (requiresPortal && session.portal === null) return <Navigate to={paths.app.empty.href()} replace />;
  if (!hasRequiredRole(session.roles, roles)) return <NoAccess homePath={homePathFor(session)} />;
  if (!featureIsOn(enabled, feature)) return <FeatureOff homePath={homePathFor(session)} />;
  return <Outlet />;
}

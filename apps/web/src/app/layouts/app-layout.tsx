import { useMatches } from 'react-router';
import { paths } from '@/config/paths';
import { NotificationBell } from '@/features/alerts/components/notification-bell';
import { PortalSwitcher } from '@/features/portal/components/portal-switcher';
import { useHasResellerAccount } from '@/features/resellers/api/get-own-reseller';
import { GlobalSearch } from '@/features/search/components/global-search';
import { hasRequiredRole, homePathFor } from '@/lib/authorization';
import { useLiveChannel } from '@/lib/live/use-live-channel';
import { useSession } from '@/lib/session';
import { deepestHandle } from '../route-handle';
import { AppFrame } from './app-frame';
import { RoleGate } from './role-gate';
import { SessionFallback } from './session-loading';

/** /app: the portal operator's area (sign-in required by the route's loader). */
export function AppLayout() {
  const { data: session, error, refetch } = useSession();
  const allNavItems = deepestHandle(useMatches(), 'navItems') ?? [];
  useLiveChannel(session?.portal?._id ?? null);
  // The reseller area's entry is for resellers (on the reseller host it is everyone's landing).
  const reseller = useHasResellerAccount(session !== undefined);
  const navItems = allNavItems.filter((item) => !item.resellersOnly || reseller);
  if (!session) return <SessionFallback error={error} onRetry={() => void refetch()} />;
  return (
    <AppFrame
      session={session}
      navItems={navItems}
      homePath={homePathFor(session)}
      settingsPath={paths.app.settings.href()}
      headerExtra={
        <>
          {/* Search is the portal's admins' too (GET portal/search answers them only). */}
          {session.portal && hasRequiredRole(session.roles, ['admin']) && <GlobalSearch />}
          {/* The inbox is the portal's admins' (GET portal/notifications answers them only). */}
          {session.portal && hasRequiredRole(session.roles, ['admin']) && <NotificationBell />}
          <PortalSwitcher session={session} />
        </>
      }
    >
      <RoleGate session={session} />
    </AppFrame>
  );
}

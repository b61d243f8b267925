import { useMatches } from 'react-router';
import { paths } from '@/config/paths';
import { homePathFor } from '@/lib/authorization';
import { useLiveChannel } from '@/lib/live/use-live-channel';
import { useSession } from '@/lib/session';
import { deepestHandle } from '../route-handle';
import { AppFrame } from './app-frame';
import { RoleGate } from './role-gate';
import { SessionFallback } from './session-loading';

/** /user: the basic user's area (sign-in required by the route's loader). */
export function UserLayout() {
  const { data: session, error, refetch } = useSession();
  const navItems = deepestHandle(useMatches(), 'navItems') ?? [];
  useLiveChannel(session?.portal?._id ?? null);
  if (!session) return <SessionFallback error={error} onRetry={() => void refetch()} />;
  return (
    <AppFrame
      session={session}
      navItems={navItems}
      homePath={homePathFor(session)}
      settingsPath={paths.user.settings.href()}
    >
      <RoleGate session={session} />
    </AppFrame>
  );
}

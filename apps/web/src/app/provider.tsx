import { NOTIFICATION_TIMEOUT_MS } from '@latchkey/shared';
import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { queryClient as appQueryClient } from '@/lib/query-client';
import { cssVariablesResolver, theme } from './theme';

interface AppProviderProps {
  children: ReactNode;
  queryClient?: QueryClient;
  /** 'test' turns off transitions and portals (used by component tests). */
  env?: 'default' | 'test';
}

const Notifications = lazy(async () => ({ default: (await import('./notifications-layer')).Notifications }));

/**
 * The notifications layer, loaded with the first notification: it (and the transitions behind
 * it) is not part of any page's first load. `notifications.show()` only fills the store, which the
 * layer shows once it is there.
 */
function LazyNotifications() {
  const { notifications, queue } = useNotifications();
  // Once there, it stays: the last notification leaves with its transition.
  const [needed, setNeeded] = useState(false);
  if (!needed && (notifications.length > 0 || queue.length > 0)) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Notifications autoClose={NOTIFICATION_TIMEOUT_MS} />
    </Suspense>
  );
}

/** Theme (follows the system colour scheme), notifications and server state for the whole app. */
export function AppProvider({ children, queryClient = appQueryClient, env = 'default' }: AppProviderProps) {
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      cssVariablesResolver={cssVariablesResolver}
      env={env}
    >
      <LazyNotifications />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}

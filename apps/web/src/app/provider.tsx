import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { NOTIFICATION_TIMEOUT_MS } from '@latchkey/shared';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient as appQueryClient } from '@/lib/query-client';
import { cssVariablesResolver, theme } from './theme';

interface AppProviderProps {
  children: ReactNode;
  queryClient?: QueryClient;
  /** 'test' turns off transitions and portals (used by component tests). */
  env?: 'default' | 'test';
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
      <Notifications autoClose={NOTIFICATION_TIMEOUT_MS} />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}

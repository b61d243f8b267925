import { EmptyState } from '@mantine/core';
import type { ReactNode } from 'react';

interface EmptyListProps {
  icon: ReactNode;
  title: string;
  description: ReactNode;
  /** A button inviting the first step, or a way out of a search that found nothing. */
  action?: ReactNode;
  /** Tinted, for "nothing here yet" (an invitation) rather than "nothing matches". */
  invite?: boolean;
}

/** What a list shows when it is empty: a titled (h2) message and what to do next. */
export function EmptyList({ icon, title, description, action, invite = false }: EmptyListProps) {
  return (
    <EmptyState py="xl" variant={invite ? 'light' : undefined}>
      <EmptyState.Indicator>{icon}</EmptyState.Indicator>
      <EmptyState.Title order={2}>{title}</EmptyState.Title>
      <EmptyState.Description>{description}</EmptyState.Description>
      {action && <EmptyState.Actions>{action}</EmptyState.Actions>}
    </EmptyState>
  );
}

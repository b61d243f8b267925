import { Button, EmptyState } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
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

interface NoMatchListProps {
  title: string;
  /** What to try instead. */
  description: ReactNode;
  /** The label of the button that clears the search and filters ("Show all locks"). */
  showAll: string;
  onShowAll: () => void;
}

/** A search or filter that found nothing: what to try, and a way back to the whole list. */
export function NoMatchList({ title, description, showAll, onShowAll }: NoMatchListProps) {
  return (
    <EmptyList
      icon={<IconSearch size={28} aria-hidden="true" />}
      title={title}
      description={description}
      action={
        <Button variant="default" onClick={onShowAll}>
          {showAll}
        </Button>
      }
    />
  );
}

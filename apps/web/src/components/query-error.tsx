import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { errorMessage } from '@/lib/errors';

interface QueryErrorProps {
  title?: string;
  error: unknown;
  onRetry?: () => void;
}

/** The error state of a screen or card, with a way to try again. */
export function QueryError({ title = 'Could not load this', error, onRetry }: QueryErrorProps) {
  return (
    <Alert
      color="red"
      variant="light"
      title={title}
      icon={<IconAlertTriangle aria-hidden="true" />}
      role="alert"
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm">{errorMessage(error)}</Text>
        {onRetry && (
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Group>
    </Alert>
  );
}

import { Alert, Anchor, Text } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

/** "Confirm your email first": what waits for a confirmed address, and the way to confirm it. */
export function ConfirmEmailFirst({ children }: { children: ReactNode }) {
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconMailExclamation aria-hidden="true" />}
      title="Confirm your email first"
      role="alert"
    >
      <Text size="sm">
        {children}{' '}
        <Anchor component={Link} to={paths.mustActivate.href()} size="sm" fw={600}>
          Confirm your email address
        </Anchor>
      </Text>
    </Alert>
  );
}

import { Alert, Button, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

/**
 * Why a lock cannot be added (a 402 from the server: the portal's plan allows no more locks, or it
 * is not paid up), shown in the form with the way out: the plans page.
 */
export function PlanLimitAlert({ message }: { message: string }) {
  return (
    <Alert color="orange" title="The plan allows no more locks" role="alert">
      <Text size="sm" mb="xs">
        {message}
      </Text>
      <Button component={Link} to={paths.app.upgrade.href()} size="xs" variant="light">
        See plans
      </Button>
    </Alert>
  );
}

import { Alert, Button, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

/**
 * What the server said when the portal's plan does not allow an action (a 402: a plan feature the
 * plan lacks, or a plan not paid up), shown where the action was tried, with the way to the plans.
 * Shared, so every screen of a gated action offers the same way out (issue 19, item 9).
 */
export function PlanRefusalAlert({ title, message }: { title: string; message: string }) {
  return (
    <Alert color="orange" title={title} role="alert">
      <Text size="sm" mb="xs">
        {message}
      </Text>
      <Button component={Link} to={paths.app.upgrade.href()} size="xs" variant="light">
        See plans
      </Button>
    </Alert>
  );
}

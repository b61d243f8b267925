import { Button, Center, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { reportError } from '@/features/client-errors/api/report-client-error';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';

/** What a screen shows when it (or its loader) failed. */
export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // A screen that broke is reported to platform staff (once per error per page load).
  useEffect(() => {
    if (!isRouteErrorResponse(error)) reportError(error);
  }, [error]);

  return (
    <Center mih="100dvh" p="md" component="main">
      <Stack align="center" ta="center" gap="md" maw={460}>
        <ThemeIcon size={64} radius="xl" variant="light" color={notFound ? 'latchkey' : 'red'}>
          <IconAlertTriangle size={34} stroke={1.6} aria-hidden="true" />
        </ThemeIcon>
        <Title order={1} fz={26}>
          {notFound ? 'Page not found' : 'Something went wrong'}
        </Title>
        <Text c="dimmed">
          {notFound ? 'The page you are looking for doesn’t exist, or it has moved.' : errorMessage(error)}
        </Text>
        <Group justify="center">
          {!notFound && <Button onClick={() => window.location.reload()}>Reload the page</Button>}
          <Button component={Link} to={paths.root.href()} variant={notFound ? 'filled' : 'default'}>
            Go to the start
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}

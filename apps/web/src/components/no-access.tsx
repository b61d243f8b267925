import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';

interface NoAccessProps {
  /** Where the person belongs (their home for their role). */
  homePath: string;
}

/** Shown in place of a screen the signed-in person's role does not include. */
export function NoAccess({ homePath }: NoAccessProps) {
  return (
    <Stack align="center" ta="center" gap="md" py={64} px="md" maw={480} mx="auto">
      <ThemeIcon size={64} radius="xl" variant="light" color="red">
        <IconLock size={34} stroke={1.6} aria-hidden="true" />
      </ThemeIcon>
      <Title order={1} fz={26}>
        You don&apos;t have access to this page
      </Title>
      <Text c="dimmed">
        Your role in this portal doesn&apos;t include it. If you think you need it, ask one of the
        portal&apos;s admins.
      </Text>
      <Button component={Link} to={homePath}>
        Go to my home
      </Button>
    </Stack>
  );
}

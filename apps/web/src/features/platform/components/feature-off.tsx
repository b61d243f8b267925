import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconToggleLeft } from '@tabler/icons-react';
import { Link } from 'react-router';

/** In place of a screen whose feature platform staff switched off (for this portal or everywhere). */
export function FeatureOff({ homePath }: { homePath: string }) {
  return (
    <Stack align="center" ta="center" gap="md" py={64} px="md" maw={480} mx="auto">
      <ThemeIcon size={64} radius="xl" variant="light" color="gray">
        <IconToggleLeft size={34} stroke={1.6} aria-hidden="true" />
      </ThemeIcon>
      <Title order={1} fz={26}>
        This feature is switched off
      </Title>
      <Text c="dimmed">
        Platform staff have switched this part of Latchkey off for your portal. Everything else keeps working;
        ask support if you need it back.
      </Text>
      <Button component={Link} to={homePath}>
        Go to my home
      </Button>
    </Stack>
  );
}

import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingOff } from '@tabler/icons-react';

/** Shown in place of a portal screen when the person acts in no portal at all. */
export function NoPortal() {
  return (
    <Stack align="center" ta="center" gap="md" py={64} px="md" maw={480} mx="auto">
      <ThemeIcon size={64} radius="xl" variant="light">
        <IconBuildingOff size={34} stroke={1.6} aria-hidden="true" />
      </ThemeIcon>
      <Title order={1} fz={26}>
        No portal selected
      </Title>
      <Text c="dimmed">
        You are not an active member of any portal yet. Accept an invitation, or pick a portal in the switcher
        at the top of the page.
      </Text>
    </Stack>
  );
}

import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowLeft, IconQuestionMark } from '@tabler/icons-react';
import { Link } from 'react-router';

interface MissingRecordProps {
  /** "This lock" */
  what: string;
  backTo: string;
  backLabel: string;
}

/** A detail screen whose record does not exist (deleted, or in another portal: both answer 404). */
export function MissingRecord({ what, backTo, backLabel }: MissingRecordProps) {
  return (
    <Stack align="center" ta="center" gap="md" py={48} px="md" maw={480} mx="auto">
      <ThemeIcon size={56} radius="xl" variant="light" color="gray">
        <IconQuestionMark size={30} stroke={1.6} aria-hidden="true" />
      </ThemeIcon>
      <Title order={1} fz={24}>
        {what} doesn&apos;t exist
      </Title>
      <Text c="dimmed">It may have been removed, or it belongs to another portal.</Text>
      <Button component={Link} to={backTo} leftSection={<IconArrowLeft size={16} aria-hidden="true" />}>
        {backLabel}
      </Button>
    </Stack>
  );
}

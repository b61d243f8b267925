import { Group, Paper, Stack, Text, Title, type PaperProps } from '@mantine/core';
import { useId, type ReactNode } from 'react';

interface SectionCardProps extends Omit<PaperProps, 'title'> {
  title: ReactNode;
  description?: ReactNode;
  /** Beside the title (a count, an action). */
  aside?: ReactNode;
  children: ReactNode;
  /** Red border and title: irreversible actions. */
  danger?: boolean;
}

/** A titled card section of a screen (an h2 the section is labelled by). */
export function SectionCard({
  title,
  description,
  aside,
  children,
  danger = false,
  ...props
}: SectionCardProps) {
  const id = useId();
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby={id}
      style={danger ? { borderColor: 'var(--mantine-color-red-filled)' } : undefined}
      {...props}
    >
      <Group justify="space-between" align="flex-start" gap="sm" mb="md" wrap="wrap">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 200px' }}>
          <Title order={2} fz="lg" id={id} c={danger ? 'red' : undefined}>
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </Stack>
        {aside}
      </Group>
      {children}
    </Paper>
  );
}

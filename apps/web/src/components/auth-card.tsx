import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface AuthCardProps {
  title: string;
  description: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}

/** The frame of the sign-in, sign-up, password and invitation screens: a title, a line and a card. */
export function AuthCard({ title, description, children, footer }: AuthCardProps) {
  return (
    <Stack gap="lg">
      <Stack gap={6}>
        <Title order={1} fz={{ base: 26, sm: 30 }}>
          {title}
        </Title>
        <Text c="dimmed">{description}</Text>
      </Stack>
      <Paper withBorder radius="lg" shadow="sm" p={{ base: 'lg', sm: 'xl' }}>
        {children}
      </Paper>
      {footer && (
        <Text ta="center" size="sm">
          {footer}
        </Text>
      )}
    </Stack>
  );
}

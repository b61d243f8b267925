import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { Logo } from '@/components/logo';
import { paths } from '@/config/paths';

/** Any unknown path (brief §2). */
export function NotFoundPage() {
  return (
    <Center mih="100dvh" p="md" component="main">
      <Stack align="center" ta="center" gap="lg" maw={460}>
        <Logo size={30} />
        <Text fw={800} fz={{ base: 88, sm: 120 }} lh={1} className="not-found-code" aria-hidden="true">
          404
        </Text>
        <Title order={1} fz={26}>
          Page not found
        </Title>
        <Text c="dimmed">The page you are looking for doesn&apos;t exist, or it has moved.</Text>
        <Button
          component={Link}
          to={paths.root.href()}
          leftSection={<IconArrowLeft size={18} aria-hidden="true" />}
        >
          Back to the start
        </Button>
      </Stack>
    </Center>
  );
}

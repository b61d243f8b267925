import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { Logo } from '@/components/logo';
import { paths } from '@/config/paths';
import { homePathFor } from '@/lib/authorization';
import { useSession } from '@/lib/session';

/** Any unknown path (brief §2). */
export function NotFoundPage() {
  return (
    <Center mih="100dvh" p="md" component="main">
      <Stack align="center" ta="center" gap="lg" maw={460}>
        <Logo size={30} />
        <NotFoundText />
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

/**
 * An unknown address under a signed-in area (/app/…, /sync/…, /user/…): shown inside that area's
 * frame, so the menu stays and the way back is the person's own home, not the sign-in page.
 */
export function InFrameNotFoundPage() {
  const { data: session } = useSession();
  // The frame renders this only with a session; the root is the fallback while it loads.
  const home = session ? homePathFor(session) : paths.root.href();
  return (
    <Center py={{ base: 'xl', sm: 64 }}>
      <Stack align="center" ta="center" gap="lg" maw={460}>
        <NotFoundText />
        <Button component={Link} to={home} leftSection={<IconArrowLeft size={18} aria-hidden="true" />}>
          Back to your home page
        </Button>
      </Stack>
    </Center>
  );
}

function NotFoundText() {
  return (
    <>
      <Text fw={800} fz={{ base: 88, sm: 120 }} lh={1} className="not-found-code" aria-hidden="true">
        404
      </Text>
      <Title order={1} fz={26}>
        Page not found
      </Title>
      <Text c="dimmed">The page you are looking for doesn&apos;t exist, or it has moved.</Text>
    </>
  );
}

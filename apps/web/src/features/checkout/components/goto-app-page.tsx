import { Button, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingStore, IconDeviceMobile, IconLock, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { isSignedIn } from '@/lib/auth-token';

/** /goto-app (anyone): after buying, where the hardware is managed: the Latchkey app. */
export function GotoAppPage() {
  const signedIn = isSignedIn();
  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }} maw={640} mx="auto" w="100%">
      <Stack gap="md">
        <ThemeIcon size={56} radius="xl" variant="light" aria-hidden="true">
          <IconDeviceMobile size={30} />
        </ThemeIcon>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          Manage your hardware in Latchkey
        </Title>
        <Text>Once your order arrives, everything happens in your Latchkey portal:</Text>
        <List spacing="sm" center>
          <List.Item icon={<IconLock size={20} aria-hidden="true" />}>
            Add each lock with the setup details in its box; locks bought while signed in are already there.
          </List.Item>
          <List.Item icon={<IconUsers size={20} aria-hidden="true" />}>
            Invite people, give them codes, cards or fobs, and set when they may open which door.
          </List.Item>
          <List.Item icon={<IconBuildingStore size={20} aria-hidden="true" />}>
            See every opening and every refusal, and what each lock has accepted.
          </List.Item>
        </List>
        <Group gap="sm" mt="sm">
          {signedIn ? (
            <Button component={Link} to={paths.auth.landing.href()}>
              Open the app
            </Button>
          ) : (
            <>
              <Button component={Link} to={paths.signup.href()}>
                Create a free portal
              </Button>
              <Button component={Link} to={paths.root.href()} variant="default">
                Sign in
              </Button>
            </>
          )}
          <Button component={Link} to={paths.shop.products.href()} variant="subtle">
            Back to the shop
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

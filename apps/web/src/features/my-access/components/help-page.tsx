import { Anchor, List, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { HelpTopics } from '@/features/content/components/help-topics';

/** /user/help: how a person opens their locks and what to do when one refuses them. */
export function HelpPage() {
  return (
    <Stack gap="lg" maw={760}>
      <PageHeader title="Help" description="Opening your locks, and what to do when one says no." />
      <SectionCard title="Opening a lock">
        <List spacing="xs" size="sm">
          <List.Item>
            <b>Keypad:</b> type your code (see{' '}
            <Anchor component={Link} to={paths.user.home.href()}>
              Your locks
            </Anchor>
            ) and wait for the light.
          </List.Item>
          <List.Item>
            <b>Card or fingerprint:</b> hold it to the reader until it beeps.
          </List.Item>
          <List.Item>
            <b>Times:</b> each lock lets you in at the times listed for it, in the lock&apos;s own time zone.
          </List.Item>
        </List>
      </SectionCard>
      <SectionCard title="When a lock refuses you">
        <Stack gap="xs">
          <Text size="sm">
            Open the lock in{' '}
            <Anchor component={Link} to={paths.user.home.href()}>
              Your locks
            </Anchor>
            : it says whether you may open it now, and if not, why (outside your times, a lockout, expired
            access).
          </Text>
          <Text size="sm">
            Locks keep working without a connection; a change your admin just made reaches the lock the next
            time it is online. If it still refuses you, ask your portal admin.
          </Text>
        </Stack>
      </SectionCard>
      <SectionCard title="Your account">
        <Text size="sm">
          Change your name, email, password or turn on two-factor sign-in in{' '}
          <Anchor component={Link} to={paths.user.settings.href()}>
            Settings
          </Anchor>
          .
        </Text>
      </SectionCard>
      <HelpTopics />
    </Stack>
  );
}

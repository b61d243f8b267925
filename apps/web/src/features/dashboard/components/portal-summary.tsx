import type { Portal } from '@latchkey/shared';
import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { PortalStatusBadge } from '@/components/portal-status-badge';
import { formatDate } from '@/lib/format';

/** How the portal stands with its subscription, in words. */
export function subscriptionText(portal: Portal): string {
  if (portal.stripe.status === 'active') {
    return portal.expireDate
      ? `Subscription active, renews ${formatDate(portal.expireDate, portal.timeZone)}`
      : 'Subscription active';
  }
  if (portal.expireDate) {
    return portal.current
      ? `Paid up until ${formatDate(portal.expireDate, portal.timeZone)}`
      : `Not paid since ${formatDate(portal.expireDate, portal.timeZone)}`;
  }
  return 'Free plan, no subscription';
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700} style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text component="div" size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** Status, expiry, time zone and age of the portal. */
export function PortalSummary({ portal }: { portal: Portal }) {
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="portal-summary"
    >
      <Title order={2} fz="lg" id="portal-summary" mb="md">
        Subscription
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
        <Fact label="Status">
          <PortalStatusBadge portal={portal} />
        </Fact>
        <Fact label="Billing">{subscriptionText(portal)}</Fact>
        <Fact label="Time zone">{portal.timeZone}</Fact>
        <Fact label="Created">{formatDate(portal.createdAt, portal.timeZone)}</Fact>
      </SimpleGrid>
    </Paper>
  );
}

import { Grid, Paper, Skeleton, SimpleGrid, Stack } from '@mantine/core';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { useDashboard } from '../api/get-dashboard';
import { LatestMembers } from './latest-members';
import { LockStats } from './lock-stats';
import { MemberStats } from './member-stats';
import { NeedsAnswer } from './needs-answer';
import { NeedsAttention } from './needs-attention';
import { PortalSettingsForm } from './portal-settings-form';
import { PortalSummary, subscriptionText } from './portal-summary';

function DashboardSkeleton() {
  return (
    <Stack gap="lg" role="status" aria-label="Loading the dashboard">
      <Skeleton height={34} width="40%" radius="sm" />
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} height={92} radius="lg" />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }}>
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} height={92} radius="lg" />
        ))}
      </SimpleGrid>
      <Skeleton height={220} radius="lg" />
    </Stack>
  );
}

/** /app/dashboard (admin): the portal at a glance. */
export function DashboardPage() {
  const { data, error, isPending, refetch } = useDashboard();

  if (isPending) return <DashboardSkeleton />;
  if (error) {
    return (
      <Paper p="md" radius="lg">
        <QueryError title="Could not load the dashboard" error={error} onRetry={() => void refetch()} />
      </Paper>
    );
  }

  const { portal, counts } = data;
  return (
    <Stack gap="lg">
      <PageHeader title={portal.name} description={`${subscriptionText(portal)} · ${portal.timeZone}`} />
      <NeedsAnswer />
      <LockStats counts={counts} />
      <MemberStats counts={counts} />
      <NeedsAttention dashboard={data} />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <LatestMembers />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack gap="lg">
            <PortalSummary portal={portal} />
            <PortalSettingsForm key={`${portal._id}:${portal.name}:${portal.timeZone}`} portal={portal} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

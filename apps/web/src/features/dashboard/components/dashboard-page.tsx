import { Grid, Paper, Skeleton, SimpleGrid, Stack } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { BelowTheFold } from '@/components/below-the-fold';
import { PageHeader } from '@/components/page-header';
import { ZoneFilter } from '@/features/zones/components/zone-filter';
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
  // A zone narrows the lock counts and the locks that need attention (features/zones).
  const [search, setSearch] = useSearchParams();
  const zoneId = search.get('zone') ?? undefined;
  const { data, error, isPending, refetch } = useDashboard(zoneId);

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
      <PageHeader
        title={portal.name}
        description={`${subscriptionText(portal)} · ${portal.timeZone}`}
        aside={
          <ZoneFilter
            label="Locks of zone"
            value={zoneId ?? null}
            onChange={(value) =>
              setSearch(
                (params) => {
                  if (value) params.set('zone', value);
                  else params.delete('zone');
                  return params;
                },
                { replace: true },
              )
            }
            w={220}
          />
        }
      />
      <NeedsAnswer />
      <LockStats counts={counts} />
      <MemberStats counts={counts} />
      <BelowTheFold>
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
      </BelowTheFold>
    </Stack>
  );
}

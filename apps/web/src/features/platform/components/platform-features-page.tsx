import type { FeatureFlagInput } from '@latchkey/shared';
import { Select, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { errorMessage } from '@/lib/errors';
import { useFeatureFlags } from '../api/get-feature-flags';
import { usePlatformPortals } from '../api/get-platform-portals';
import { useSetFeatureFlag } from '../api/set-feature-flag';
import { FlagSwitches } from './flag-switches';
import { PortalFlagsCard } from './portal-flags-card';

/** /app/platform/features (platform staff): feature flags for the whole deployment and per portal. */
export function PlatformFeaturesPage() {
  const flags = useFeatureFlags();
  const setFlag = useSetFeatureFlag();
  const [portalId, setPortalId] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const portals = usePlatformPortals({ skip: 0, limit: 20, search: debounced.trim() || undefined });
  const change = (input: FeatureFlagInput) =>
    setFlag.mutate(input, {
      onSuccess: () =>
        notifications.show({
          color: 'teal',
          title: 'Feature switched',
          message: 'Saved for the whole deployment.',
        }),
      onError: (error) =>
        notifications.show({
          color: 'red',
          title: 'Could not switch the feature',
          message: errorMessage(error),
        }),
    });

  return (
    <Stack gap="lg">
      <PageHeader
        title="Features"
        description="Switch features for the whole deployment, or for one portal (a portal's override wins). The server refuses what is off; the app hides it."
      />
      <SectionCard
        title="Whole deployment"
        description="Every portal follows these values unless it overrides them."
      >
        {flags.isPending ? (
          <TableSkeleton label="Loading features" rows={3} />
        ) : flags.error ? (
          <QueryError
            title="Could not load the features"
            error={flags.error}
            onRetry={() => void flags.refetch()}
          />
        ) : (
          <FlagSwitches
            flags={flags.data}
            scope="deployment"
            pending={setFlag.isPending ? (setFlag.variables?.flag ?? null) : null}
            onChange={change}
          />
        )}
      </SectionCard>
      <SectionCard title="One portal" description="Find the portal by its name or its owner's email.">
        <Select
          label="Portal"
          placeholder="Portal name or owner email"
          searchable
          clearable
          searchValue={search}
          onSearchChange={setSearch}
          value={portalId}
          onChange={setPortalId}
          filter={({ options }) => options}
          nothingFoundMessage={portals.isFetching ? 'Searching…' : 'No portal matches'}
          data={(portals.data?.items ?? []).map((portal) => ({
            value: portal._id,
            label: `${portal.name} (${portal.owner.email})`,
          }))}
          maw={520}
        />
      </SectionCard>
      {portalId && <PortalFlagsCard portalId={portalId} />}
    </Stack>
  );
}

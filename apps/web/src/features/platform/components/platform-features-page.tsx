import { Select, Stack } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { PageHeader } from '@/components/page-header';
import { SectionCard } from '@/components/section-card';
import { useFeatureFlags } from '../api/get-feature-flags';
import { usePlatformPortals } from '../api/get-platform-portals';
import { useSetFeatureFlag } from '../api/set-feature-flag';
import { LoadedFlagSwitches } from './flag-switches';
import { PortalFlagsCard } from './portal-flags-card';

/** /app/platform/features (platform staff): feature flags for the whole deployment and per portal. */
export function PlatformFeaturesPage() {
  const flags = useFeatureFlags();
  const setFlag = useSetFeatureFlag();
  const [portalId, setPortalId] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const portals = usePlatformPortals({ skip: 0, limit: 20, search: debounced.trim() || undefined });
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
        <LoadedFlagSwitches
          flags={flags}
          setFlag={setFlag}
          scope="deployment"
          savedMessage="Saved for the whole deployment."
        />
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

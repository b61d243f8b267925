import type { FeatureFlagInput } from '@latchkey/shared';
import { notifications } from '@mantine/notifications';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { errorMessage } from '@/lib/errors';
import { usePortalFeatureFlags } from '../api/get-portal-feature-flags';
import { useSetPortalFeatureFlag } from '../api/set-portal-feature-flag';
import { FlagSwitches } from './flag-switches';

/** A portal's feature flags: its overrides win over the deployment's values. */
export function PortalFlagsCard({ portalId }: { portalId: string }) {
  const flags = usePortalFeatureFlags(portalId);
  const setFlag = useSetPortalFeatureFlag(portalId);
  const change = (input: FeatureFlagInput) =>
    setFlag.mutate(input, {
      onSuccess: () =>
        notifications.show({ color: 'teal', title: 'Feature switched', message: 'Saved for this portal.' }),
      onError: (error) =>
        notifications.show({
          color: 'red',
          title: 'Could not switch the feature',
          message: errorMessage(error),
        }),
    });
  return (
    <SectionCard
      title="Features in this portal"
      description="An override here wins over the deployment's value; the change is written to the portal's change log."
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
          scope="portal"
          pending={setFlag.isPending ? (setFlag.variables?.flag ?? null) : null}
          onChange={change}
        />
      )}
    </SectionCard>
  );
}

import { SectionCard } from '@/components/section-card';
import { usePortalFeatureFlags } from '../api/get-portal-feature-flags';
import { useSetPortalFeatureFlag } from '../api/set-portal-feature-flag';
import { LoadedFlagSwitches } from './flag-switches';

/** A portal's feature flags: its overrides win over the deployment's values. */
export function PortalFlagsCard({ portalId }: { portalId: string }) {
  const flags = usePortalFeatureFlags(portalId);
  const setFlag = useSetPortalFeatureFlag(portalId);
  return (
    <SectionCard
      title="Features in this portal"
      description="An override here wins over the deployment's value; the change is written to the portal's change log."
    >
      <LoadedFlagSwitches
        flags={flags}
        setFlag={setFlag}
        scope="portal"
        savedMessage="Saved for this portal."
      />
    </SectionCard>
  );
}

import { PORTAL_STANDING_LABELS, type PlatformPortal } from '@latchkey/shared';
import { Badge, Group } from '@mantine/core';

// The labels are the ones the portal's admins read on their billing page (one state, one label).
const STANDING: Record<PlatformPortal['standing'], { label: string; color: string }> = {
  free: { label: PORTAL_STANDING_LABELS.free, color: 'gray' },
  active: { label: PORTAL_STANDING_LABELS.active, color: 'teal' },
  canceling: { label: PORTAL_STANDING_LABELS.canceling, color: 'yellow' },
  past_due: { label: PORTAL_STANDING_LABELS.past_due, color: 'orange' },
  lapsed: { label: PORTAL_STANDING_LABELS.lapsed, color: 'red' },
};

const PLAN: Record<PlatformPortal['plan'], string> = { free: 'Free', pro: 'Pro', business: 'Business' };

/** A portal's plan and where it stands with its payments (paid up or not), as staff read it. */
export function StandingBadge({ portal }: { portal: Pick<PlatformPortal, 'plan' | 'standing'> }) {
  const standing = STANDING[portal.standing];
  return (
    <Group gap={6} wrap="nowrap">
      <Badge variant="outline" color="gray" c="var(--mantine-color-text)">
        {PLAN[portal.plan]}
      </Badge>
      {portal.plan !== 'free' && (
        <Badge variant="light" color={standing.color}>
          {standing.label}
        </Badge>
      )}
    </Group>
  );
}

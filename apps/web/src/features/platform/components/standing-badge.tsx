import type { PlatformPortal } from '@latchkey/shared';
import { Badge, Group } from '@mantine/core';

const STANDING: Record<PlatformPortal['standing'], { label: string; color: string }> = {
  free: { label: 'Free plan', color: 'gray' },
  active: { label: 'Current', color: 'teal' },
  canceling: { label: 'Current, canceling', color: 'yellow' },
  past_due: { label: 'Payment due', color: 'orange' },
  lapsed: { label: 'Lapsed', color: 'red' },
};

const PLAN: Record<PlatformPortal['plan'], string> = { free: 'Free', pro: 'Pro', business: 'Business' };

/** A portal's plan and where it stands with its payments (current or lapsed), as staff read it. */
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

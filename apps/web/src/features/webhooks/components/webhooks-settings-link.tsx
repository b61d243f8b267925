import type { Session } from '@latchkey/shared';
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { hasRequiredRole } from '@/lib/authorization';

/** The settings screen's way to the portal's webhooks (admins of a portal only). */
export function WebhooksSettingsLink({ session }: { session: Session }) {
  if (!hasRequiredRole(session.roles, ['admin']) || session.portal === null) return null;
  return (
    <SectionCard
      title="Webhooks"
      description="Send lock events, credentials confirmed by locks, stays and payments to your own systems"
    >
      <Text size="sm">
        <Anchor component={Link} to={paths.app.webhooks.href()}>
          Manage webhook endpoints and their delivery logs
        </Anchor>
      </Text>
    </SectionCard>
  );
}

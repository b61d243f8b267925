import type { Session } from '@latchkey/shared';
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { hasRequiredRole } from '@/lib/authorization';

/** The settings screen's way to the portal's API keys (admins of a portal only). */
export function ApiKeysSettingsLink({ session }: { session: Session }) {
  if (!hasRequiredRole(session.roles, ['admin']) || session.portal === null) return null;
  return (
    <SectionCard title="API keys" description="Let your PMS, ERP or scripts use this portal through the API">
      <Text size="sm">
        <Anchor component={Link} to={paths.app.apiKeys.href()}>
          Manage API keys
        </Anchor>
      </Text>
    </SectionCard>
  );
}

import type { Session } from '@latchkey/shared';
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { hasRequiredRole } from '@/lib/authorization';

/**
 * The portal's setup screens that an admin opens once in a while, so they are reached from the
 * settings screen rather than the sidebar (which holds the day's work and fits a laptop's screen).
 */
const PORTAL_TOOLS = [
  {
    title: 'API keys',
    description: 'Let your PMS, ERP or scripts use this portal through the API',
    label: 'Manage API keys',
    href: () => paths.app.apiKeys.href(),
  },
  {
    title: 'Webhooks',
    description: 'Send lock events, credentials confirmed by locks and stays to your own systems',
    label: 'Manage webhook endpoints and their delivery logs',
    href: () => paths.app.webhooks.href(),
  },
  {
    title: 'Desk readers',
    description: 'Pair a card or fingerprint reader at your desk and fill card numbers from a tap',
    label: 'Manage desk readers',
    href: () => paths.app.readers.href(),
  },
];

/** The settings screen's ways to the portal's setup screens (admins of a portal only). */
export function PortalToolsLinks({ session }: { session: Session }) {
  if (!hasRequiredRole(session.roles, ['admin']) || session.portal === null) return null;
  return PORTAL_TOOLS.map((tool) => (
    <SectionCard key={tool.title} title={tool.title} description={tool.description}>
      <Text size="sm">
        <Anchor component={Link} to={tool.href()}>
          {tool.label}
        </Anchor>
      </Text>
    </SectionCard>
  ));
}

import type { PortalRole } from '@latchkey/shared';
import { Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBuilding } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** "an admin", "a user". */
export function roleWithArticle(role: PortalRole): string {
  return role === 'admin' ? 'an admin' : 'a user';
}

/** What the role lets the person do there. */
export function roleMeaning(role: PortalRole): string {
  return role === 'admin'
    ? 'Admins run the portal: its locks, people and access.'
    : 'Users open the locks they are given access to.';
}

interface InvitationDetailsProps {
  portalName: string;
  role: PortalRole;
  /** Further lines (who invited, the address, until when). */
  rows?: { label: string; value: ReactNode }[];
}

/** The portal and role of an invitation, and a few facts about it, as a definition list. */
export function InvitationDetails({ portalName, role, rows = [] }: InvitationDetailsProps) {
  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="nowrap">
        <ThemeIcon size={44} radius="md" variant="light" aria-hidden="true">
          <IconBuilding size={24} stroke={1.7} />
        </ThemeIcon>
        <div style={{ minWidth: 0 }}>
          <Text fw={700} size="lg" style={{ overflowWrap: 'anywhere' }}>
            {portalName}
          </Text>
          <Text size="sm" c="dimmed">
            {roleMeaning(role)}
          </Text>
        </div>
      </Group>
      {rows.length > 0 && (
        <Stack component="dl" gap={6} m={0}>
          {rows.map((row) => (
            <Group key={row.label} gap="xs" wrap="wrap" align="baseline">
              <Text component="dt" size="sm" c="dimmed" w={96}>
                {row.label}
              </Text>
              <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere', flex: '1 1 160px' }}>
                {row.value}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

import type { Session } from '@latchkey/shared';
import { Box, Group, Text } from '@mantine/core';
import { IconHeadset } from '@tabler/icons-react';
import { hasRequiredRole } from '@/lib/authorization';
import { formatTime } from '@/lib/format';
import { usePortalSupportSession } from '../api/get-support-session';

/**
 * "Support is acting here (staff email, until 14:30)": shown to a portal's admins while platform
 * staff act in their portal through a support session (GET portal/supportSession). Not shown in
 * the support session itself, which has its own banner.
 */
export function SupportActingBanner({ session }: { session: Session }) {
  const eligible =
    session.portal !== null && !session.impersonatedBy && hasRequiredRole(session.roles, ['admin']);
  const { data } = usePortalSupportSession(eligible);
  const acting = eligible ? data?.session : null;
  if (!acting) return null;
  const timeZone = session.portal?.timeZone;
  return (
    <Box
      component="section"
      aria-label="Support is acting here"
      mb="lg"
      p="sm"
      style={{
        borderRadius: 'var(--mantine-radius-lg)',
        border: '1px solid var(--mantine-color-orange-outline)',
        background: 'var(--mantine-color-orange-light)',
      }}
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <IconHeadset size={22} aria-hidden="true" style={{ flexShrink: 0 }} />
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <strong>Support is acting here.</strong> {acting.staff.email} of platform support is acting in this
          portal as {acting.person.email}, until {formatTime(acting.expiresAt, timeZone)}
          {timeZone ? ` (${timeZone})` : ''}. Their changes are in the change log.
        </Text>
      </Group>
    </Box>
  );
}

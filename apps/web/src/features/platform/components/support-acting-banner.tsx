import type { Session } from '@latchkey/shared';
import { Alert } from '@mantine/core';
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
    <Alert
      component="section"
      aria-label="Support is acting here"
      color="orange"
      variant="light"
      mb="lg"
      icon={<IconHeadset size={20} aria-hidden="true" />}
      title="Support is acting here"
    >
      {acting.staff.email} of platform support is acting in this portal as {acting.person.email}, until{' '}
      {formatTime(acting.expiresAt, timeZone)}
      {timeZone ? ` (${timeZone})` : ''}. Their changes are in the change log.
    </Alert>
  );
}

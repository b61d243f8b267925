import { Box } from '@mantine/core';
import { useSession } from '@/lib/session';
import { RoleGate } from './role-gate';
import { SessionFallback } from './session-loading';

/**
 * The brief's print layout (/print/…): a document on its own, no navigation, so the browser's
 * print (A4 or Letter) shows only the document. Sign-in is required by the route's loader; the
 * route's roles are checked as in /app.
 */
export function PrintLayout() {
  const { data: session, error, refetch } = useSession();
  if (!session) return <SessionFallback error={error} onRetry={() => void refetch()} />;
  return (
    <Box component="main" id="main">
      <RoleGate session={session} />
    </Box>
  );
}

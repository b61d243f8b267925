import { Center, Loader } from '@mantine/core';
import { QueryError } from '@/components/query-error';

/** While the session loads (or when it cannot), in place of the signed-in shell. */
export function SessionFallback({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Center mih="100dvh" p="md" component="main">
      {error ? (
        <QueryError title="Could not load your account" error={error} onRetry={onRetry} />
      ) : (
        <Loader aria-label="Loading your account" />
      )}
    </Center>
  );
}

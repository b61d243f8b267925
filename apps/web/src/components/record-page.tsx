import { Paper, Skeleton, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { isApiError } from '@/lib/api-client';
import { BackLink } from './back-link';
import { MissingRecord } from './missing-record';
import { PageHeader } from './page-header';
import { QueryError } from './query-error';

interface RecordQuery<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  refetch: () => unknown;
}

interface Back {
  to: string;
  label: string;
}

interface RecordHeader {
  title: ReactNode;
  description?: ReactNode;
  /** Badges or actions beside the title. */
  aside?: ReactNode;
  /** Where "back" leads once the record is known, when not to `back` (its parent record). */
  back?: Back;
}

interface RecordPageProps<T> {
  /** The one record's query. */
  query: RecordQuery<T>;
  /** What the record is, for the states: "lock" → "Loading the lock", "This lock doesn't exist". */
  noun: string;
  /** The way back (to the list) above the record, its error and on the missing-record page. */
  back: Back;
  /** The placeholders under the title's while it loads (one card's by default). */
  skeleton?: ReactNode;
  /** What a 404 shows instead of "This … doesn't exist". */
  missing?: ReactNode;
  /** The record's back link, title, line of context and actions. */
  header: (record: T) => RecordHeader;
  /** The record's sections under its header. */
  children: (record: T) => ReactNode;
}

/**
 * A record's screen: loading, missing (404: deleted, or in another portal), error with a retry,
 * then its back link, title and sections. The screen supplies the query, its header and sections.
 */
export function RecordPage<T>({
  query,
  noun,
  back,
  skeleton,
  missing,
  header,
  children,
}: RecordPageProps<T>) {
  const { data, error, isPending, refetch } = query;
  if (isPending) {
    return (
      <Stack gap="lg" role="status" aria-label={`Loading the ${noun}`}>
        <Skeleton height={34} width="40%" radius="sm" />
        {skeleton ?? <Skeleton height={240} radius="lg" />}
      </Stack>
    );
  }
  if (error) {
    if (isApiError(error) && error.status === 404) {
      return missing ?? <MissingRecord what={`This ${noun}`} backTo={back.to} backLabel={back.label} />;
    }
    return (
      <Stack gap="lg">
        <BackLink {...back} />
        <Paper p="md" radius="lg">
          <QueryError title={`Could not load the ${noun}`} error={error} onRetry={() => void refetch()} />
        </Paper>
      </Stack>
    );
  }
  if (data === undefined) return null;
  const { back: recordBack = back, ...heading } = header(data);
  return (
    <Stack gap="lg">
      <BackLink {...recordBack} />
      <PageHeader {...heading} />
      {children(data)}
    </Stack>
  );
}

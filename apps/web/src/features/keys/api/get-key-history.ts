import { auditEntrySchema, type AuditEntry } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { keyKeys } from './query-keys';

/** GET keys/{id}/history (admin): what happened to a key, newest first. */
export async function getKeyHistory(keyId: string): Promise<AuditEntry[]> {
  return auditEntrySchema.array().parse(await api.get<unknown>(`keys/${encodeURIComponent(keyId)}/history`));
}

export const keyHistoryQueryOptions = (keyId: string) =>
  queryOptions({
    queryKey: keyKeys.history(keyId),
    queryFn: () => getKeyHistory(keyId),
    // Every change to the key adds an entry: show the latest whenever the key is opened.
    staleTime: 0,
  });

export function useKeyHistory(keyId: string) {
  return useQuery(keyHistoryQueryOptions(keyId));
}

import { fingerprintSchema, type Fingerprint } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { fingerprintKeys, fingerprintPath } from './query-keys';

/** GET portal/fingerprint/{id} (admin): one fingerprint, its holder and its lock. */
export async function getFingerprint(fingerprintId: string): Promise<Fingerprint> {
  return fingerprintSchema.parse(await api.get<unknown>(fingerprintPath(fingerprintId)));
}

export const fingerprintQueryOptions = (fingerprintId: string) =>
  queryOptions({
    queryKey: fingerprintKeys.detail(fingerprintId),
    queryFn: () => getFingerprint(fingerprintId),
  });

export function useFingerprint(fingerprintId: string) {
  return useQuery(fingerprintQueryOptions(fingerprintId));
}

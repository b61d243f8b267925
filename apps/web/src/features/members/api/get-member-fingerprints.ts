import { fingerprintSchema, type Fingerprint } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { memberKeys } from './query-keys';

/** GET user/{id}/fingerprints (admin): the fingers a person has enrolled, each at one lock. */
export async function getMemberFingerprints(userId: string): Promise<Fingerprint[]> {
  return fingerprintSchema
    .array()
    .parse(await api.get<unknown>(`user/${encodeURIComponent(userId)}/fingerprints`));
}

export const memberFingerprintsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: memberKeys.fingerprints(userId), queryFn: () => getMemberFingerprints(userId) });

export function useMemberFingerprints(userId: string) {
  return useQuery(memberFingerprintsQueryOptions(userId));
}

import { fingerprintSchema, type Fingerprint } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceKeys } from './query-keys';

/** GET device/{id}/fingerprints (admin): the fingers enrolled on a lock's reader. */
export async function getDeviceFingerprints(deviceId: string): Promise<Fingerprint[]> {
  return fingerprintSchema
    .array()
    .parse(await api.get<unknown>(`device/${encodeURIComponent(deviceId)}/fingerprints`));
}

export const deviceFingerprintsQueryOptions = (deviceId: string) =>
  queryOptions({
    queryKey: deviceKeys.fingerprints(deviceId),
    queryFn: () => getDeviceFingerprints(deviceId),
  });

export function useDeviceFingerprints(deviceId: string) {
  return useQuery(deviceFingerprintsQueryOptions(deviceId));
}

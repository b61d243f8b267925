import { rfidCardSchema, type RfidCard } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { memberKeys } from './query-keys';

/** GET user/{id}/rfids (admin): the RFID cards a person carries. */
export async function getMemberRfids(userId: string): Promise<RfidCard[]> {
  return rfidCardSchema.array().parse(await api.get<unknown>(`user/${encodeURIComponent(userId)}/rfids`));
}

export const memberRfidsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: memberKeys.rfids(userId), queryFn: () => getMemberRfids(userId) });

export function useMemberRfids(userId: string) {
  return useQuery(memberRfidsQueryOptions(userId));
}

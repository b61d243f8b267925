import { lockoutRecordSchema, type LockoutRecord, type ZoneLockoutInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidateZones } from './invalidate';
import { zonePath } from './query-keys';

/** POST zone/{id}/lockout (admin): a lockout of the zone's locks that follows the zone. */
export async function lockOutZone({
  zoneId,
  ...input
}: ZoneLockoutInput & { zoneId: string }): Promise<LockoutRecord> {
  return lockoutRecordSchema.parse(await api.post<unknown>(`${zonePath(zoneId)}/lockout`, input));
}

export function useLockOutZone() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: lockOutZone, onSuccess: () => invalidateZones(queryClient) });
}

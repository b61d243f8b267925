import {
  deviceLandingSchema,
  shareLockSettingsSchema,
  shareTokenSchema,
  type DeviceLandingInput,
  type ShareLockSettingsInput,
} from '@latchkey/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listingKeys } from './query-keys';

const sharePath = (listingId: string) => `device/${encodeURIComponent(listingId)}/sharelock`;

/** POST device/{listingId}/sharelock: sharing on or off, initialTime, startTime, automatic approval. */
export function useShareSettings(listingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ShareLockSettingsInput) =>
      shareLockSettingsSchema.parse(await api.post<unknown>(sharePath(listingId), input)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listingKeys.all }),
  });
}

/** GET device/{listingId}/sharelock/token: the listing's landing link. */
export function useShareToken(listingId: string) {
  return useQuery({
    queryKey: listingKeys.shareToken(listingId),
    queryFn: async () => shareTokenSchema.parse(await api.get<unknown>(`${sharePath(listingId)}/token`)),
  });
}

/** GET device/{listingId}/sharelock/token?rotate=true: a new link; the old one stops working. */
export function useRotateShareToken(listingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      shareTokenSchema.parse(
        await api.get<unknown>(`${sharePath(listingId)}/token`, { query: { rotate: true } }),
      ),
    onSuccess: (token) => queryClient.setQueryData(listingKeys.shareToken(listingId), token),
  });
}

/** GET portal/device/{id}/landing: a lock's arrival instructions. */
export function useDeviceLanding(deviceId: string, enabled = true) {
  return useQuery({
    queryKey: listingKeys.landing(deviceId),
    queryFn: async () =>
      deviceLandingSchema.parse(
        await api.get<unknown>(`portal/device/${encodeURIComponent(deviceId)}/landing`),
      ),
    enabled,
  });
}

/** POST device/{id}/sharelock/landing. */
export function useSaveDeviceLanding(deviceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: DeviceLandingInput) =>
      deviceLandingSchema.parse(
        await api.post<unknown>(`device/${encodeURIComponent(deviceId)}/sharelock/landing`, input),
      ),
    onSuccess: (landing) => queryClient.setQueryData(listingKeys.landing(deviceId), landing),
  });
}

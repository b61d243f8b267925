import { syncTokenSchema, type SyncTokenRequest } from '@latchkey/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Where the phone is, if the person lets the browser say within a few seconds; else nothing. */
function currentLocation(): Promise<SyncTokenRequest['location']> {
  if (typeof navigator === 'undefined' || !navigator.geolocation) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      ({ coords }) =>
        resolve({ latitude: coords.latitude, longitude: coords.longitude, accuracy: coords.accuracy }),
      () => resolve(undefined),
      { timeout: 5000, maximumAge: 60_000 },
    );
  });
}

/**
 * POST device/{id}/synclock/user/token: the person's current access to a lock, signed, for their
 * phone to show at a lock that is offline.
 */
export function useCarryAccess(deviceId: string) {
  return useMutation({
    mutationFn: async () => {
      const location = await currentLocation();
      return syncTokenSchema.parse(
        await api.post<unknown>(`device/${encodeURIComponent(deviceId)}/synclock/user/token`, {
          ...(location && { location }),
        }),
      );
    },
  });
}

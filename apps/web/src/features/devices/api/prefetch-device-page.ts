import type { QueryClient } from '@tanstack/react-query';
import type { ScreenReads } from '@/lib/screen-reads';
import { deviceQueryOptions } from './get-device';
import { devicePossibleUsersQueryOptions } from './get-device-possible-users';
import { deviceUsersQueryOptions } from './get-device-users';
import { deviceTabOf } from './device-tabs';

/**
 * Starts the reads the lock page shows first (the lock, and on the People tab who may use it and
 * who could) without waiting for them: the route's loader calls it while the page's code loads
 * (docs/decisions.md, "First load"), and the page finds the answers in the cache.
 */
export const prefetchDevicePage: ScreenReads = (client: QueryClient, { params, url }) => {
  const deviceId = params.deviceId;
  if (!deviceId) return;
  void client.prefetchQuery(deviceQueryOptions(deviceId));
  if (deviceTabOf(url.searchParams) === 'people') {
    void client.prefetchQuery(deviceUsersQueryOptions(deviceId));
    void client.prefetchQuery(devicePossibleUsersQueryOptions(deviceId));
  }
};

import type { QueryClient } from '@tanstack/react-query';
import type { ScreenReads } from '@/lib/screen-reads';
import { deviceQueryOptions } from './get-device';
import { devicePossibleUsersQueryOptions } from './get-device-possible-users';
import { deviceUsersQueryOptions } from './get-device-users';

/** The lock page's tabs, in their order; the first opens unless the address names another. */
export const DEVICE_TABS = [
  'people',
  'access',
  'guests',
  'groups',
  'cards',
  'fingerprints',
  'history',
  'settings',
  'sync',
] as const;
export type DeviceTab = (typeof DEVICE_TABS)[number];

/** The tab `?tab=` names, or the first. */
export function deviceTabOf(search: URLSearchParams): DeviceTab {
  const named = search.get('tab');
  return DEVICE_TABS.find((tab) => tab === named) ?? DEVICE_TABS[0];
}

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

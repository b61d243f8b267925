/*
 * Which tab a screen opens on decides which reads its route starts (prefetch-device-page.ts), so the
 * tabs are listed here, beside the reads, for the loader to know without the page's code.
 */

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

/** Query keys of the zones feature: everything about one zone sits under its detail key. */
export const zoneKeys = {
  all: ['zones'] as const,
  list: () => ['zones', 'list'] as const,
  detail: (zoneId: string) => ['zones', 'detail', zoneId] as const,
  devices: (zoneId: string) => ['zones', 'detail', zoneId, 'devices'] as const,
  possibleDevices: (zoneId: string) => ['zones', 'detail', zoneId, 'possibleDevices'] as const,
};

export const zonePath = (zoneId: string) => `zone/${encodeURIComponent(zoneId)}`;

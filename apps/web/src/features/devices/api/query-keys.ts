import type { DevicesQuery } from '@latchkey/shared';

export type DevicesParams = Partial<
  Pick<DevicesQuery, 'skip' | 'limit' | 'search' | 'sortBy' | 'descending' | 'filterBy' | 'filterValue'>
>;

/**
 * Query keys of the devices feature: everything about one lock sits under its detail key (a
 * person's schedule at the lock too).
 */
export const deviceKeys = {
  all: ['devices'] as const,
  list: (params: DevicesParams) => ['devices', 'list', params] as const,
  options: (search: string) => ['devices', 'options', search] as const,
  lowBattery: () => ['devices', 'lowBattery'] as const,
  detail: (deviceId: string) => ['devices', 'detail', deviceId] as const,
  users: (deviceId: string) => ['devices', 'detail', deviceId, 'users'] as const,
  possibleUsers: (deviceId: string) => ['devices', 'detail', deviceId, 'possibleUsers'] as const,
  groups: (deviceId: string) => ['devices', 'detail', deviceId, 'groups'] as const,
  rfids: (deviceId: string) => ['devices', 'detail', deviceId, 'rfids'] as const,
  invites: (deviceId: string) => ['devices', 'detail', deviceId, 'invites'] as const,
  stayGuests: (deviceId: string) => ['devices', 'detail', deviceId, 'stayGuests'] as const,
  fingerprints: (deviceId: string) => ['devices', 'detail', deviceId, 'fingerprints'] as const,
  sync: (deviceId: string) => ['devices', 'detail', deviceId, 'sync'] as const,
  schedule: (deviceId: string, userId: string) =>
    ['devices', 'detail', deviceId, 'schedule', userId] as const,
  command: (deviceId: string, commandId: string | undefined) =>
    ['devices', 'detail', deviceId, 'command', commandId] as const,
  access: (deviceId: string, at: string | null) =>
    ['devices', 'detail', deviceId, 'access', at ?? 'now'] as const,
};

import { deviceCommandRecordSchema, type DeviceCommandRecord } from '@latchkey/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceKeys } from './query-keys';

/** GET device/{id}/command/{commandId}: a command sent to a lock, and the lock's answer so far. */
export async function getRemoteCommand(deviceId: string, commandId: string): Promise<DeviceCommandRecord> {
  return deviceCommandRecordSchema.parse(
    await api.get<unknown>(`device/${encodeURIComponent(deviceId)}/command/${encodeURIComponent(commandId)}`),
  );
}

/** How often to ask for the lock's answer while it is pending. */
const POLL_MS = 1000;

/** Follows a sent command (`sent`) until the lock answers or the command expires. */
export const remoteCommandQueryOptions = (deviceId: string, sent: DeviceCommandRecord | null) =>
  queryOptions({
    queryKey: deviceKeys.command(deviceId, sent?.commandId),
    queryFn: () => getRemoteCommand(deviceId, sent!.commandId),
    enabled: sent !== null,
    initialData: sent ?? undefined,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? POLL_MS : false),
  });

import { deviceCommandRecordSchema, type DeviceCommandRecord } from '@latchkey/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '@/lib/api-client';
import { deviceQueryOptions } from './get-device';
import { remoteCommandQueryOptions } from './get-remote-command';

/**
 * Opening or locking a lock from the portal (POST device/{id}/command), then following the lock's
 * answer (`remoteCommandQueryOptions`) until it comes or the command expires. Used by the admin's
 * lock page and the basic user's lock page, which show it with `components/remote-command-panel.tsx`.
 */
export async function sendRemoteCommand(
  deviceId: string,
  action: 'unlock' | 'lock',
): Promise<DeviceCommandRecord> {
  return deviceCommandRecordSchema.parse(
    await api.post<unknown>(`device/${encodeURIComponent(deviceId)}/command`, { action }),
  );
}

export function useRemoteCommand(deviceId: string) {
  const queryClient = useQueryClient();
  const [sent, setSent] = useState<DeviceCommandRecord | null>(null);
  const send = useMutation({
    mutationFn: (action: 'unlock' | 'lock') => sendRemoteCommand(deviceId, action),
    onSuccess: (command) => setSent(command),
  });
  const followed = useQuery(remoteCommandQueryOptions(deviceId, sent));
  const command = sent ? (followed.data ?? sent) : null;
  const succeeded = command?.status === 'ok' ? command.commandId : null;
  useEffect(() => {
    // Once per answered command: the lock's state and history changed, so screens showing them refresh.
    if (succeeded)
      void queryClient.invalidateQueries({ queryKey: deviceQueryOptions(deviceId).queryKey, exact: true });
  }, [succeeded, deviceId, queryClient]);
  return { send, command, pending: send.isPending || command?.status === 'pending' };
}

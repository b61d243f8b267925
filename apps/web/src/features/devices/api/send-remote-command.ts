import { deviceCommandRecordSchema, LOCK_OFFLINE, type DeviceCommandRecord } from '@latchkey/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, isApiError } from '@/lib/api-client';
import { deviceQueryOptions } from './get-device';
import { remoteCommandQueryOptions } from './get-remote-command';
import { deviceKeys } from './query-keys';

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
  const [sent, setSent] = useState<{ command: DeviceCommandRecord; at: number } | null>(null);
  const send = useMutation({
    mutationFn: (action: 'unlock' | 'lock') => sendRemoteCommand(deviceId, action),
    onSuccess: (command) => setSent({ command, at: Date.now() }),
    onError: (error) => {
      // The lock went offline since the screen was loaded: every screen showing it (this lock's
      // page, the person's locks, all under the devices key) reads its connection again.
      if (isApiError(error) && error.code === LOCK_OFFLINE) {
        void queryClient.invalidateQueries({ queryKey: deviceKeys.all });
      }
    },
  });
  const followed = useQuery(remoteCommandQueryOptions(deviceId, sent?.command ?? null));
  const command = sent ? (followed.data ?? sent.command) : null;
  const succeeded = command?.status === 'ok' ? command.commandId : null;
  useEffect(() => {
    // Once per answered command: the lock's state and history changed, so screens showing them refresh.
    if (succeeded)
      void queryClient.invalidateQueries({ queryKey: deviceQueryOptions(deviceId).queryKey, exact: true });
  }, [succeeded, deviceId, queryClient]);
  return {
    send,
    command,
    sentAt: sent?.at ?? null,
    pending: send.isPending || command?.status === 'pending',
  };
}

import { deviceCommandRecordSchema, type DeviceCommandRecord } from '@latchkey/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from './api-client';

/**
 * Opening or locking a lock from the portal (POST device/{id}/command), then following the lock's
 * answer (GET device/{id}/command/{commandId}) until it comes or the command expires. Shared by the
 * admin's lock page and the basic user's lock page.
 */
export async function sendRemoteCommand(
  deviceId: string,
  action: 'unlock' | 'lock',
): Promise<DeviceCommandRecord> {
  return deviceCommandRecordSchema.parse(
    await api.post<unknown>(`device/${encodeURIComponent(deviceId)}/command`, { action }),
  );
}

export async function getRemoteCommand(deviceId: string, commandId: string): Promise<DeviceCommandRecord> {
  return deviceCommandRecordSchema.parse(
    await api.get<unknown>(`device/${encodeURIComponent(deviceId)}/command/${encodeURIComponent(commandId)}`),
  );
}

/** How often to ask for the lock's answer while it is pending. */
const POLL_MS = 1000;

export function useRemoteCommand(deviceId: string) {
  const queryClient = useQueryClient();
  const [sent, setSent] = useState<DeviceCommandRecord | null>(null);
  const send = useMutation({
    mutationFn: (action: 'unlock' | 'lock') => sendRemoteCommand(deviceId, action),
    onSuccess: (command) => setSent(command),
  });
  const followed = useQuery({
    queryKey: ['devices', 'detail', deviceId, 'command', sent?.commandId],
    queryFn: () => getRemoteCommand(deviceId, sent!.commandId),
    enabled: sent !== null,
    initialData: sent ?? undefined,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? POLL_MS : false),
  });
  const command = sent ? (followed.data ?? sent) : null;
  const succeeded = command?.status === 'ok' ? command.commandId : null;
  useEffect(() => {
    // Once per answered command: the lock's state and history changed, so screens showing them refresh.
    if (succeeded)
      void queryClient.invalidateQueries({ queryKey: ['devices', 'detail', deviceId], exact: true });
  }, [succeeded, deviceId, queryClient]);
  return { send, command, pending: send.isPending || command?.status === 'pending' };
}

/** The lock's answer in words, for the person who pressed the button. */
export function commandOutcome(command: DeviceCommandRecord): { tone: 'ok' | 'wait' | 'fail'; text: string } {
  const done = command.action === 'unlock' ? 'unlocked' : 'locked';
  switch (command.status) {
    case 'pending':
      return { tone: 'wait', text: 'Waiting for the lock to answer…' };
    case 'ok':
      return { tone: 'ok', text: `The lock ${done}.` };
    case 'expired':
      return { tone: 'fail', text: 'The lock did not answer in time. It may be offline; nothing was done.' };
    case 'failed':
      return {
        tone: 'fail',
        text:
          command.error === 'jammed'
            ? 'The lock tried but is jammed.'
            : command.error === 'busy'
              ? 'The lock was busy; try again.'
              : command.error === 'unsupported'
                ? 'This lock cannot do that.'
                : 'The lock refused.',
      };
  }
}

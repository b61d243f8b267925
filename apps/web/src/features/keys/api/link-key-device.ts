import { keySchema, type Key } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { keyChanged } from './change-key';

interface KeyDeviceInput {
  keyId: string;
  deviceId: string;
}

const devicePath = ({ keyId, deviceId }: KeyDeviceInput) =>
  `keys/${encodeURIComponent(keyId)}/device/${encodeURIComponent(deviceId)}`;

/** PUT keys/{id}/device/{deviceId} (admin): the key works at (fits) this lock. */
export async function linkKeyDevice(input: KeyDeviceInput): Promise<Key> {
  return keySchema.parse(await api.put<unknown>(devicePath(input)));
}

/** DELETE keys/{id}/device/{deviceId} (admin): the key no longer works at this lock. */
export async function unlinkKeyDevice(input: KeyDeviceInput): Promise<Key> {
  return keySchema.parse(await api.delete<unknown>(devicePath(input)));
}

export function useLinkKeyDevice() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: linkKeyDevice, onSuccess: (key) => keyChanged(queryClient, key) });
}

export function useUnlinkKeyDevice() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: unlinkKeyDevice, onSuccess: (key) => keyChanged(queryClient, key) });
}

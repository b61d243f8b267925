import { keySchema, type Key } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { keyChanged } from './change-key';

interface KeyHolderInput {
  keyId: string;
  userId: string;
}

const holderPath = ({ keyId, userId }: KeyHolderInput) =>
  `keys/${encodeURIComponent(keyId)}/user/${encodeURIComponent(userId)}`;

/** PUT keys/{id}/user/{userId} (admin): hand the key to a person (from whoever held it). */
export async function handOverKey(input: KeyHolderInput): Promise<Key> {
  return keySchema.parse(await api.put<unknown>(holderPath(input)));
}

/** DELETE keys/{id}/user/{userId} (admin): the holder gave the key back; it has no holder now. */
export async function returnKey(input: KeyHolderInput): Promise<Key> {
  return keySchema.parse(await api.delete<unknown>(holderPath(input)));
}

/**
 * Used by the key's page and by the person's "Hand over a key": the answer is shown at once and
 * every portal-data root refreshes (the holder's and the locks' screens show keys too).
 */
export function useHandOverKey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: handOverKey, onSuccess: (key) => keyChanged(queryClient, key) });
}

export function useReturnKey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: returnKey, onSuccess: (key) => keyChanged(queryClient, key) });
}

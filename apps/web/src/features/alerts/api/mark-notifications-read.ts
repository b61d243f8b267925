import { notificationsReadSchema } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST portal/notifications/read (admin): every alert so far is read, for me in this portal. */
export async function markNotificationsRead() {
  return notificationsReadSchema.parse(await api.post<unknown>('portal/notifications/read'));
}

export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markNotificationsRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['alerts', 'notifications'] }),
  });
}

import { notificationsPageSchema, type NotificationsPage } from '@latchkey/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { alertKeys } from './query-keys';

export const NOTIFICATIONS_PAGE_SIZE = 20;

/** GET portal/notifications (admin): the portal's alerts, newest first, unread ones marked. */
export async function getNotifications(page: number): Promise<NotificationsPage> {
  return notificationsPageSchema.parse(
    await api.get<unknown>('portal/notifications', {
      query: { skip: (page - 1) * NOTIFICATIONS_PAGE_SIZE, limit: NOTIFICATIONS_PAGE_SIZE },
    }),
  );
}

export function useNotifications(page: number) {
  return useQuery({
    queryKey: alertKeys.notifications(page),
    queryFn: () => getNotifications(page),
    placeholderData: keepPreviousData,
  });
}

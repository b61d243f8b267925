import { NOTIFICATION_TIMEOUT_MS, type LiveNotification, type LivePortalMessage } from '@latchkey/shared';
import { notifications } from '@mantine/notifications';
import { useQueryClient, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../api-client';
import { getValidToken } from '../auth-token';
import { sessionQueryKey } from '../session';
import { storage } from '../storage';
import { useStoredValue } from '../use-storage';
import { LiveConnection, liveChannelUrl, type LiveSocket } from './live-connection';

/**
 * The brief's live notifications (§4): on a portal change the channel is resubscribed and the
 * read time is reset from the person's readNotification entry for that portal; each newer
 * notification is shown as an alert for NOTIFICATION_TIMEOUT_MS and becomes the read time.
 */

/** The stored read time of a portal's notifications (ms since the epoch; 0 when never read). */
export function readTimeOf(portalId: string): number {
  return storage.getUserData()?.readNotification[portalId] ?? 0;
}

/** Records that the person has seen a portal's notifications up to `atMs`. */
export function markNotificationsRead(portalId: string, atMs: number): void {
  const userData = storage.getUserData();
  if (!userData || (userData.readNotification[portalId] ?? 0) >= atMs) return;
  storage.setUserData({ ...userData, readNotification: { ...userData.readNotification, [portalId]: atMs } });
}

const NOTIFICATION_COLORS: Record<LiveNotification['kind'], string> = {
  device_event: 'red',
  device_status: 'yellow',
  alert: 'red',
  notice: 'blue',
};

/** Device screens read from these roots (the lib cannot import the features' own keys). */
const DEVICE_STATUS_ROOTS = [['devices']] as const;
const DEVICE_EVENT_ROOTS = [['devices'], ['history'], ['activity']] as const;
/** The listing screens (the listings feature), their requests and stays. */
const STAY_ROOTS = [['listings']] as const;

/**
 * What one message does on screen: notifications are shown (once: not older than the read time),
 * device changes refetch the screens that show them.
 */
export function applyLiveMessage(
  message: LivePortalMessage,
  queryClient: QueryClient,
  readTime: { current: number },
): void {
  if (message.type === 'notification') {
    const { notification } = message;
    const atMs = Date.parse(notification.at);
    if (atMs <= readTime.current) return;
    readTime.current = atMs;
    notifications.show({
      id: notification._id,
      title: notification.title,
      message: notification.message,
      color: NOTIFICATION_COLORS[notification.kind],
      autoClose: NOTIFICATION_TIMEOUT_MS,
      // Mantine's close button is an icon alone: without a name, axe (and a screen reader) finds an
      // unnamed button in whatever screen the notification shows over.
      closeButtonProps: { 'aria-label': 'Dismiss' },
    });
    markNotificationsRead(message.portalId, atMs);
    // A stored alert or inbox notice: the bell and the alerts screen show it (unread) without a reload.
    if (notification.kind === 'alert' || notification.kind === 'notice')
      refetch(queryClient, [['alerts', 'notifications']]);
    return;
  }
  if (message.type === 'stay.changed') {
    // A request arrived or was answered, or its access reached the locks: the listing screens.
    refetch(queryClient, STAY_ROOTS);
    return;
  }
  const lockId = message.type === 'device.status' ? message.device._id : message.event.device._id;
  refetch(queryClient, message.type === 'device.status' ? DEVICE_STATUS_ROOTS : DEVICE_EVENT_ROOTS, (query) =>
    notAnotherLocksPage(query.queryKey, lockId),
  );
}

/**
 * False for the queries of another lock's page (the devices feature keeps everything about one lock
 * under ['devices', 'detail', lockId]): a message about one lock leaves the pages of the others
 * alone. Lists, the sync views and a person's locks, which show many locks, read again.
 */
function notAnotherLocksPage(queryKey: QueryKey, lockId: string): boolean {
  const [root, part, id] = queryKey;
  return !(root === 'devices' && part === 'detail' && id !== lockId);
}

function refetch(
  queryClient: QueryClient,
  roots: readonly (readonly string[])[],
  predicate?: (query: Query) => boolean,
): void {
  for (const root of roots) {
    const queryKey = [...root];
    // A screen's first read still under way may have been answered before this change was stored,
    // and invalidating joins that read instead of reading again (TanStack Query cancels an
    // in-flight fetch for a refetch only once the query has data): cancel it, so the refetch
    // below reads afresh. A lock's event arriving as its History tab opened was otherwise lost.
    for (const query of queryClient
      .getQueryCache()
      .findAll({ queryKey, predicate, fetchStatus: 'fetching' })) {
      if (query.state.data === undefined) void query.cancel({ silent: true });
    }
    void queryClient.invalidateQueries({ queryKey, predicate });
  }
}

/**
 * Once subscribed without the server having sent what this client may have missed (a reconnection,
 * another portal, a page older than the server keeps), the screens the channel keeps fresh read
 * again: an event stored while the page loaded or while the connection was down was published
 * before this client listened, and would otherwise never show.
 */
function catchUp(queryClient: QueryClient): void {
  refetch(queryClient, [...DEVICE_EVENT_ROOTS, ...STAY_ROOTS, ['alerts', 'notifications']]);
}

/**
 * Keeps the live channel open while signed in, subscribed to the portal the person acts in.
 * Mounted once by the /app and /user layouts.
 */
export function useLiveChannel(
  actingPortalId: string | null,
  createSocket?: (url: string) => LiveSocket,
): void {
  const queryClient = useQueryClient();
  const token = useStoredValue(() => getValidToken());
  const connection = useRef<LiveConnection | null>(null);
  const readTime = useRef(0);

  useEffect(() => {
    if (!token) return;
    const live = new LiveConnection({
      url: liveChannelUrl(api.baseUrl, window.location.href),
      getToken: () => getValidToken(),
      onMessage: (message) => applyLiveMessage(message, queryClient, readTime),
      // The server sent what was published while the page loaded: nothing else to read again.
      onSubscribed: ({ replayed }) => {
        if (!replayed) catchUp(queryClient);
      },
      // GET auth decides: a revoked session ends here as everywhere else (401 → root).
      onUnauthorized: () => void queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
      onPortalDenied: () => void queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
      createSocket,
    });
    connection.current = live;
    live.start();
    return () => {
      live.stop();
      connection.current = null;
    };
  }, [token, queryClient, createSocket]);

  // Declared after the connection's effect so a new connection also gets the portal.
  useEffect(() => {
    readTime.current = actingPortalId ? readTimeOf(actingPortalId) : 0;
    connection.current?.setPortal(actingPortalId);
  }, [actingPortalId, token]);
}

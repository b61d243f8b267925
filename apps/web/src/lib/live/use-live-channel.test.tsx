import { QueryObserver } from '@tanstack/react-query';
import { renderHook, screen, act } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { FakeWebSocket } from '@/testing/fake-websocket';
import { validToken } from '@/testing/jwt';
import { queryClient } from '../query-client';
import { storage } from '../storage';
import { useLiveChannel } from './use-live-channel';

const wrapper = ({ children }: { children: ReactNode }) => <AppProvider env="test">{children}</AppProvider>;

function signIn(readNotification: Record<string, number> = {}) {
  storage.setAuthToken(validToken());
  storage.setUserData({
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    portalOwned: 'portal-a',
    readNotification,
  });
}

/** Renders the hook for a portal and brings its socket to a subscription, as the server would. */
function renderLive(portalId: string) {
  const view = renderHook(({ portal }) => useLiveChannel(portal), {
    wrapper,
    initialProps: { portal: portalId },
  });
  const socket = FakeWebSocket.latest();
  act(() => {
    socket.open();
    socket.receive({ type: 'ready' });
  });
  return { ...view, socket };
}

const notification = (portalId: string, at: string, title = 'Tamper alarm at Front door') => ({
  type: 'notification',
  portalId,
  notification: {
    _id: crypto.randomUUID(),
    at,
    kind: 'device_event',
    title,
    message: 'Check it',
    deviceId: 'lock-1',
  },
});

const unlockEvent = {
  type: 'device.event',
  portalId: 'portal-a',
  event: {
    _id: 'e1',
    eventId: 'lock-e1',
    device: { _id: 'lock-1', name: 'Front door' },
    type: 'unlock',
    method: 'code',
    user: null,
    credentialId: null,
    reason: null,
    occurredAt: '2030-01-01T10:00:00.000Z',
    receivedAt: '2030-01-01T10:00:00.000Z',
  },
};

describe('useLiveChannel', () => {
  it('connects to /api3/live like the page, authenticates and subscribes to the acting portal', () => {
    signIn();
    const { socket } = renderLive('portal-a');
    expect(socket.url).toBe(`ws://${window.location.host}/api3/live`);
    expect(socket.sent).toEqual([
      { type: 'auth', token: storage.getAuthToken() },
      // With what it missed while the page loaded, if the page is young enough (live-connection.test.ts).
      expect.objectContaining({ type: 'subscribe', portalId: 'portal-a' }),
    ]);
  });

  it('does not connect while signed out', () => {
    renderHook(() => useLiveChannel('portal-a'), { wrapper });
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it('shows a notification as an alert and records the read time for the portal', async () => {
    signIn({ 'portal-b': 5 });
    const { socket } = renderLive('portal-a');
    act(() => socket.receive(notification('portal-a', '2030-01-01T10:00:00.000Z')));
    expect(await screen.findByText('Tamper alarm at Front door')).toBeInTheDocument();
    // Its close button has a name (axe found an unnamed one over the screens it showed on).
    expect(screen.getByRole('button', { name: 'Dismiss' })).toBeInTheDocument();
    expect(storage.getUserData()?.readNotification).toEqual({
      'portal-a': Date.parse('2030-01-01T10:00:00.000Z'),
      'portal-b': 5,
    });
  });

  it('does not show a notification older than the portal’s read time', async () => {
    signIn({ 'portal-a': Date.parse('2030-01-01T10:00:00.000Z') });
    const { socket } = renderLive('portal-a');
    act(() => {
      socket.receive(notification('portal-a', '2030-01-01T09:00:00.000Z', 'Old news'));
      socket.receive(notification('portal-a', '2030-01-01T11:00:00.000Z', 'Fresh news'));
    });
    expect(await screen.findByText('Fresh news')).toBeInTheDocument();
    expect(screen.queryByText('Old news')).not.toBeInTheDocument();
  });

  it('resubscribes on a portal change and takes that portal’s read time', async () => {
    signIn({ 'portal-b': Date.parse('2030-01-01T12:00:00.000Z') });
    const { socket, rerender } = renderLive('portal-a');
    rerender({ portal: 'portal-b' });
    expect(socket.sent.at(-1)).toEqual({ type: 'subscribe', portalId: 'portal-b' });
    act(() => {
      socket.receive(notification('portal-b', '2030-01-01T11:00:00.000Z', 'Already read'));
      socket.receive(notification('portal-b', '2030-01-01T13:00:00.000Z', 'Unread'));
    });
    expect(await screen.findByText('Unread')).toBeInTheDocument();
    expect(screen.queryByText('Already read')).not.toBeInTheDocument();
  });

  it('refreshes device screens on device status and events', () => {
    signIn();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const { socket } = renderLive('portal-a');
    act(() => socket.receive(unlockEvent));
    const roots = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(roots).toEqual(expect.arrayContaining([['devices'], ['history'], ['activity']]));
    invalidate.mockRestore();
  });

  it('leaves another lock’s page alone when one lock changes', () => {
    signIn();
    const keys = {
      thisLock: ['devices', 'detail', 'lock-1'],
      thisLocksPeople: ['devices', 'detail', 'lock-1', 'users'],
      otherLock: ['devices', 'detail', 'lock-2'],
      otherLocksPeople: ['devices', 'detail', 'lock-2', 'users'],
      list: ['devices', 'list', {}],
      syncCenter: ['devices', 'syncCenter', {}],
      history: ['history', 'lock-2'],
    };
    for (const queryKey of Object.values(keys)) queryClient.setQueryData(queryKey, { cached: true });
    const invalidated = () =>
      Object.fromEntries(
        Object.entries(keys).map(([name, queryKey]) => [
          name,
          queryClient.getQueryState(queryKey)?.isInvalidated ?? false,
        ]),
      );
    const { socket } = renderLive('portal-a');
    const lowBattery = {
      type: 'device.status',
      portalId: 'portal-a',
      device: { _id: 'lock-1', name: 'Front door', timeZone: 'UTC', online: true, lastSeenAt: null },
    };
    act(() => socket.receive(lowBattery));
    expect(invalidated()).toEqual({
      thisLock: true,
      thisLocksPeople: true,
      otherLock: false,
      otherLocksPeople: false,
      list: true,
      syncCenter: true,
      history: false,
    });
    // An event also refreshes the feeds, which show every lock's events.
    act(() => socket.receive(unlockEvent));
    expect(invalidated()).toMatchObject({ otherLock: false, otherLocksPeople: false, history: true });
  });

  it('reads again when a change arrives during a screen’s first read, which may predate it', async () => {
    signIn();
    let stored = ['before'];
    const answers: (() => void)[] = [];
    // Each read answers with what was stored when it reached the server.
    const queryFn = vi.fn(
      () =>
        new Promise<string[]>((resolve) => {
          const seen = [...stored];
          answers.push(() => resolve(seen));
        }),
    );
    const queryKey = ['history', 'lock-1'];
    const stopObserving = new QueryObserver(queryClient, { queryKey, queryFn }).subscribe(() => {});
    await vi.waitFor(() => expect(queryFn).toHaveBeenCalledTimes(1));
    const { socket } = renderLive('portal-a');
    stored = ['before', 'unlock'];
    act(() => socket.receive(unlockEvent));
    // The first read was answered before the event was stored; a second read brings it.
    answers[0]!();
    await vi.waitFor(() => expect(queryFn).toHaveBeenCalledTimes(2));
    answers[1]!();
    await vi.waitFor(() => expect(queryClient.getQueryData(queryKey)).toEqual(['before', 'unlock']));
    stopObserving();
  });

  it('reads the live screens again once subscribed without what was published before', () => {
    signIn();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const { socket } = renderLive('portal-a');
    expect(invalidate).not.toHaveBeenCalled();
    act(() => socket.receive({ type: 'subscribed', portalId: 'portal-a' }));
    const roots = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(roots).toEqual(
      expect.arrayContaining([['devices'], ['history'], ['activity'], ['alerts', 'notifications']]),
    );
    invalidate.mockClear();
    // A late confirmation for a portal the person has left changes nothing.
    act(() => socket.receive({ type: 'subscribed', portalId: 'portal-b' }));
    expect(invalidate).not.toHaveBeenCalled();
    invalidate.mockRestore();
  });

  it('reads nothing again when the server sent what was published while the page loaded', () => {
    signIn();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const { socket } = renderLive('portal-a');
    act(() => socket.receive({ type: 'subscribed', portalId: 'portal-a', replayed: true }));
    expect(invalidate).not.toHaveBeenCalled();
    // What was sent again refreshes what it concerns, as it would have live.
    act(() => socket.receive(unlockEvent));
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual(
      expect.arrayContaining([['history']]),
    );
    invalidate.mockRestore();
  });

  it('closes the socket when unmounted', () => {
    signIn();
    const { socket, unmount } = renderLive('portal-a');
    unmount();
    expect(socket.closedWith?.code).toBe(1000);
  });
});

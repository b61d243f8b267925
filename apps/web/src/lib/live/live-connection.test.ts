import { LIVE_CLOSE_CODES } from '@latchkey/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from '@/testing/fake-websocket';
import { LiveConnection, liveChannelUrl, type LiveConnectionOptions } from './live-connection';

function connect(options: Partial<LiveConnectionOptions> = {}) {
  const onMessage = vi.fn();
  const onUnauthorized = vi.fn();
  const onPortalDenied = vi.fn();
  const connection = new LiveConnection({
    url: 'ws://portal.test/api3/live',
    getToken: () => 'token-1',
    onMessage,
    onUnauthorized,
    onPortalDenied,
    createSocket: (url) => new FakeWebSocket(url),
    initialDelayMs: 1000,
    maxDelayMs: 8000,
    random: () => 1, // no jitter: delays are exactly initial × 2^n
    sincePageStart: () => 2500, // the page began loading 2.5 s ago
    ...options,
  });
  return { connection, onMessage, onUnauthorized, onPortalDenied };
}

const event = (portalId: string) => ({
  type: 'device.status',
  portalId,
  device: {
    _id: 'lock-1',
    name: 'Front door',
    model: 'latchkey-sim',
    serial: null,
    timeZone: 'UTC',
    lowBatteryLevel: 20,
    battery: 50,
    online: true,
    lastSeenAt: '2030-01-01T00:00:00.000Z',
    createdAt: '2030-01-01T00:00:00.000Z',
  },
});

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('liveChannelUrl', () => {
  it('follows the page: ws on http, wss on https, under the API base path', () => {
    expect(liveChannelUrl('/api3', 'http://localhost:5173/app/device')).toBe('ws://localhost:5173/api3/live');
    expect(liveChannelUrl('/api3/', 'https://portal.example.com/user')).toBe(
      'wss://portal.example.com/api3/live',
    );
    expect(liveChannelUrl('https://api.example.com/api3', 'https://portal.example.com/')).toBe(
      'wss://api.example.com/api3/live',
    );
  });
});

describe('LiveConnection', () => {
  it('authenticates with the first message, then subscribes to the portal once ready', () => {
    const { connection } = connect();
    connection.setPortal('portal-a');
    connection.start();
    const socket = FakeWebSocket.latest();
    expect(socket.url).toBe('ws://portal.test/api3/live');
    socket.open();
    expect(socket.sent).toEqual([{ type: 'auth', token: 'token-1' }]);
    socket.receive({ type: 'ready' });
    // The first subscription asks for what was published since the page began to load (and a second).
    expect(socket.sent).toEqual([
      { type: 'auth', token: 'token-1' },
      { type: 'subscribe', portalId: 'portal-a', missedMs: 3500 },
    ]);
  });

  it('asks for nothing the server does not keep, and nothing after its first subscription', () => {
    const old = connect({ sincePageStart: () => 70_000 });
    old.connection.setPortal('portal-a');
    old.connection.start();
    const first = FakeWebSocket.latest();
    first.open();
    first.receive({ type: 'ready' });
    expect(first.sent.at(-1)).toEqual({ type: 'subscribe', portalId: 'portal-a' });
    old.connection.stop();

    const onSubscribed = vi.fn();
    const { connection } = connect({ onSubscribed });
    connection.setPortal('portal-a');
    connection.start();
    const socket = FakeWebSocket.latest();
    socket.open();
    socket.receive({ type: 'ready' });
    socket.receive({ type: 'subscribed', portalId: 'portal-a', replayed: true });
    expect(onSubscribed).toHaveBeenLastCalledWith({ replayed: true });
    // A reconnection may have missed anything: it asks for nothing, and is told so.
    socket.serverClose(1006);
    vi.advanceTimersByTime(1000);
    const again = FakeWebSocket.latest();
    again.open();
    again.receive({ type: 'ready' });
    expect(again.sent.at(-1)).toEqual({ type: 'subscribe', portalId: 'portal-a' });
    again.receive({ type: 'subscribed', portalId: 'portal-a' });
    expect(onSubscribed).toHaveBeenLastCalledWith({ replayed: false });
  });

  it('does not connect without a session token', () => {
    const { connection } = connect({ getToken: () => null });
    connection.start();
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it('resubscribes on a portal change, and passes on only the current portal’s messages', () => {
    const { connection, onMessage } = connect();
    connection.setPortal('portal-a');
    connection.start();
    const socket = FakeWebSocket.latest();
    socket.open();
    socket.receive({ type: 'ready' });
    connection.setPortal('portal-b');
    expect(socket.sent.at(-1)).toEqual({ type: 'subscribe', portalId: 'portal-b' });
    socket.receive(event('portal-a')); // still under way from before the switch
    socket.receive(event('portal-b'));
    expect(onMessage).toHaveBeenCalledTimes(1);
    expect(onMessage.mock.calls[0]![0]).toMatchObject({ type: 'device.status', portalId: 'portal-b' });
  });

  it('reconnects with doubling delays, and starts again from the first delay once ready', () => {
    const { connection } = connect();
    connection.setPortal('portal-a');
    connection.start();
    FakeWebSocket.latest().serverClose(1006);
    vi.advanceTimersByTime(999);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(2);
    FakeWebSocket.latest().serverClose(1006);
    vi.advanceTimersByTime(1999);
    expect(FakeWebSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(3);

    const socket = FakeWebSocket.latest();
    socket.open();
    socket.receive({ type: 'ready' });
    // Its first subscription, although on its third socket.
    expect(socket.sent.at(-1)).toEqual({ type: 'subscribe', portalId: 'portal-a', missedMs: 3500 });
    socket.serverClose(LIVE_CLOSE_CODES.goingAway);
    vi.advanceTimersByTime(1000);
    expect(FakeWebSocket.instances).toHaveLength(4);
  });

  it('never waits longer than the longest delay', () => {
    const { connection } = connect();
    connection.start();
    for (let attempt = 0; attempt < 6; attempt++) {
      FakeWebSocket.latest().serverClose(1006);
      vi.advanceTimersByTime(8000);
    }
    expect(FakeWebSocket.instances).toHaveLength(7);
  });

  it('stops after the server refuses the session, and says so', () => {
    const { connection, onUnauthorized } = connect();
    connection.start();
    FakeWebSocket.latest().serverClose(LIVE_CLOSE_CODES.unauthorized);
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });

  it('reports a refused portal', () => {
    const { connection, onPortalDenied } = connect();
    connection.setPortal('portal-x');
    connection.start();
    const socket = FakeWebSocket.latest();
    socket.open();
    socket.receive({ type: 'ready' });
    socket.receive({
      type: 'error',
      code: 'portal_override_denied',
      message: 'You may not act in that portal',
    });
    expect(onPortalDenied).toHaveBeenCalledOnce();
  });

  it('closes its socket on stop and does not reconnect', () => {
    const { connection } = connect();
    connection.start();
    const socket = FakeWebSocket.latest();
    socket.open();
    connection.stop();
    expect(socket.closedWith).toEqual({ code: 1000, reason: 'Leaving' });
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
  });
});

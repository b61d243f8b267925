import {
  LIVE_CLOSE_CODES,
  LIVE_PATH,
  LIVE_REPLAY_MAX_MS,
  liveServerMessageSchema,
  type LiveClientMessage,
  type LivePortalMessage,
} from '@latchkey/shared';

/** The part of the browser's WebSocket the connection uses (tests pass a fake). */
export interface LiveSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
}

export interface LiveConnectionOptions {
  url: string;
  /** The current session token, or null when signed out (then nothing connects). */
  getToken: () => string | null;
  /** Messages of the subscribed portal. */
  onMessage: (message: LivePortalMessage) => void;
  /**
   * The portal's messages reach this client from now on. `replayed`: what was published while the
   * page loaded came first (the first subscription asks for it); false, what was published before
   * (while the page loaded, or while the connection was down) was not sent: the screens should read
   * it again.
   */
  onSubscribed?: (outcome: { replayed: boolean }) => void;
  /**
   * Milliseconds since the page's reads began (by default since it started loading,
   * `performance.now()`): the first subscription asks for what was published since then.
   */
  sincePageStart?: () => number;
  /** The server refused the session: reconnecting will not help until the person signs in again. */
  onUnauthorized?: () => void;
  /** The server refused (or stopped) the portal's subscription: the person may no longer act there. */
  onPortalDenied?: () => void;
  createSocket?: (url: string) => LiveSocket;
  /** First reconnection delay; it doubles up to `maxDelayMs`, and resets once a connection is ready. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  random?: () => number;
}

const OPEN = 1;
/** Asked for beyond the page's own age, to be safe: timers are coarse, and a read may go out as the page starts. */
const REPLAY_MARGIN_MS = 1000;

/** The live channel's URL for an API base path (relative or absolute): ws:// or wss:// like the page. */
export function liveChannelUrl(apiBaseUrl: string, pageUrl: string): string {
  const url = new URL(`${apiBaseUrl.replace(/\/$/, '')}${LIVE_PATH}`, pageUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * One live-channel connection: authenticates with the first message, subscribes to the acting
 * portal (again after every reconnect and on every portal change), and reconnects with growing,
 * jittered delays so a restarted server is not hit by every browser at once.
 */
export class LiveConnection {
  private socket: LiveSocket | null = null;
  private portalId: string | null = null;
  private ready = false;
  private stopped = true;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Only the page's first subscription asks for what it missed: later ones read everything again. */
  private firstSubscription = true;

  constructor(private readonly options: LiveConnectionOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    this.ready = false;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.close(1000, 'Leaving');
    }
  }

  /** Follows the portal the person acts in; null stops receiving any portal's messages. */
  setPortal(portalId: string | null): void {
    if (portalId === this.portalId) return;
    this.portalId = portalId;
    // The server allows one portal per socket: a portal change is a new subscribe, and leaving
    // every portal is a fresh socket without one.
    if (!this.ready) return;
    if (portalId) this.subscribe(portalId);
    else this.reconnectNow();
  }

  private connect(): void {
    const token = this.options.getToken();
    if (!token) return;
    const create = this.options.createSocket ?? ((url) => new WebSocket(url) as LiveSocket);
    const socket = create(this.options.url);
    this.socket = socket;
    socket.onopen = () => this.send({ type: 'auth', token });
    socket.onmessage = (event) => this.receive(event);
    socket.onclose = (event) => this.closed(socket, event.code);
    // Every failure also ends in a close event, where reconnection is decided.
    socket.onerror = () => {};
  }

  private receive(event: MessageEvent): void {
    let data: unknown;
    try {
      data = JSON.parse(String(event.data));
    } catch {
      return;
    }
    const parsed = liveServerMessageSchema.safeParse(data);
    // A message type this client does not know yet (a newer server) is skipped, not fatal.
    if (!parsed.success) return;
    const message = parsed.data;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.attempt = 0;
        if (this.portalId) this.subscribe(this.portalId);
        return;
      case 'subscribed':
        if (message.portalId === this.portalId) this.options.onSubscribed?.({ replayed: message.replayed });
        return;
      case 'error':
        if (message.code === 'portal_override_denied') this.options.onPortalDenied?.();
        return;
      default:
        // Only the current portal's messages: one of the old portal may still be under way.
        if (message.portalId === this.portalId) this.options.onMessage(message);
    }
  }

  private closed(socket: LiveSocket, code: number): void {
    if (socket !== this.socket) return;
    this.socket = null;
    this.ready = false;
    if (this.stopped) return;
    if (code === LIVE_CLOSE_CODES.unauthorized) {
      this.stopped = true;
      this.options.onUnauthorized?.();
      return;
    }
    const initial = this.options.initialDelayMs ?? 1000;
    const max = this.options.maxDelayMs ?? 30_000;
    const delay =
      Math.min(max, initial * 2 ** this.attempt) * (0.5 + (this.options.random ?? Math.random)() / 2);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) this.connect();
    }, delay);
  }

  /**
   * The first subscription asks for what was published since the page began loading, when the
   * server keeps that much (LIVE_REPLAY_MAX_MS); any later one (another portal, a reconnection)
   * asks for nothing, and the screens read again. A duration, not a time: the clocks need not agree.
   */
  private subscribe(portalId: string): void {
    const sincePageStart = this.options.sincePageStart ?? (() => performance.now());
    const missedMs = this.firstSubscription ? Math.ceil(sincePageStart()) + REPLAY_MARGIN_MS : undefined;
    this.firstSubscription = false;
    this.send({
      type: 'subscribe',
      portalId,
      ...(missedMs !== undefined && missedMs <= LIVE_REPLAY_MAX_MS ? { missedMs } : {}),
    });
  }

  private reconnectNow(): void {
    this.stop();
    this.start();
  }

  private send(message: LiveClientMessage): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(message));
  }
}

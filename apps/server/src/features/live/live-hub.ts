import {
  LIVE_AUTH_TIMEOUT_MS,
  LIVE_CLOSE_CODES,
  liveAudienceIncludes,
  liveAudienceRuleOf,
  liveClientMessageSchema,
  livePortalMessageSchema,
  type Device,
  type DeviceEvent,
  type LiveAudience,
  type LiveMember,
  type LivePortalMessage,
  type LiveServerMessage,
} from '@latchkey/shared';
import type { FastifyBaseLogger } from 'fastify';
import WebSocket from 'ws';
import type { LiveBus, LiveDelivery } from './live-bus';
import { notificationForDeviceEvent, notificationForStatusChange } from './live-notifications';
import { LiveReplay } from './live-replay';

/** A portal message as a publisher writes it: the hub adds the portal id. */
export type LivePortalMessageBody = LivePortalMessage extends infer M
  ? M extends LivePortalMessage
    ? Omit<M, 'portalId'>
    : never
  : never;

/** A client only ever needs a few messages in flight (auth, a subscribe or two). */
const MAX_PENDING_CLIENT_MESSAGES = 16;

/** Thrown by `LiveSessions.verify` when the session is no good (the socket is then closed). */
export class LiveSessionEnded extends Error {}

/**
 * What a subscriber receives of its portal: everything (its admins, platform staff acting there),
 * or, for a basic user, the messages whose audience includes them (LIVE_AUDIENCES).
 */
export type LiveScope = { role: 'admin' } | ({ role: 'user' } & LiveMember);

/** How the hub checks people: the HTTP API's own rules, wired in by the plugin. */
export interface LiveSessions<Person> {
  /** The person behind a session token; throws LiveSessionEnded when it is not (or no longer) valid. */
  verify(token: string): Promise<Person>;
  /**
   * What the person may receive of the portal, or null when they may not act there (the
   * portal-override rule). Read on subscribe and at each session check, never per message.
   */
  scopeIn(person: Person, portalId: string): Promise<LiveScope | null>;
}

export interface LiveHubOptions {
  /** How often each socket's session and subscription are checked again. */
  sessionCheckMs: number;
  /** How often sockets are pinged; one that has not answered the previous ping is dropped. */
  pingMs?: number;
  /** A socket with more unsent bytes than this is too slow and is closed. */
  maxBufferedBytes?: number;
}

interface Connection<Person> {
  socket: WebSocket;
  token: string | null;
  person: Person | null;
  portalId: string | null;
  /** Set with portalId: what this socket receives of the portal. */
  scope: LiveScope | null;
  /** Messages and checks of one socket run one after another, in arrival order. */
  queue: Promise<void>;
  /** Client messages waiting in the queue: a client that floods the server is cut off. */
  pending: number;
  answeredPing: boolean;
  /** Whether a subscribe was already answered with what its page missed: a socket gets that once. */
  replayed: boolean;
  closed: boolean;
  authTimer: NodeJS.Timeout | null;
}

/**
 * The live channel's sockets and their portal subscriptions. Publishing goes through the bus
 * (in-process or Redis), which delivers to the hub of every server watching the portal.
 */
export class LiveHub<Person = unknown> {
  private readonly connections = new Set<Connection<Person>>();
  private readonly subscribers = new Map<string, Set<Connection<Person>>>();
  private readonly timers: NodeJS.Timeout[];
  private checking = false;
  private closing = false;
  private readonly bus: LiveBus;
  /** What was published lately, for a subscriber whose page may have missed it. */
  private readonly replay: LiveReplay;

  constructor(
    private readonly sessions: LiveSessions<Person>,
    private readonly log: FastifyBaseLogger,
    private readonly options: LiveHubOptions,
    createBus: (deliver: LiveDelivery) => LiveBus,
  ) {
    this.bus = createBus((portalId, json) => this.deliver(portalId, json));
    this.replay = new LiveReplay(this.bus.deliversEveryPortal);
    this.timers = [
      setInterval(() => void this.recheckPeriodically(), options.sessionCheckMs),
      setInterval(() => {
        this.pingAll();
        this.replay.sweep();
      }, options.pingMs ?? 30_000),
    ];
    for (const timer of this.timers) timer.unref();
  }

  /** Sends `message` to every socket subscribed to the portal, on every server. Never throws. */
  async publish(portalId: string, message: LivePortalMessageBody): Promise<void> {
    try {
      // Parsing keeps out anything a caller passed beyond the contract.
      const checked = livePortalMessageSchema.parse({ ...message, portalId });
      await this.bus.publish(portalId, JSON.stringify(checked));
    } catch (error) {
      // A live message is a courtesy: losing one must not fail the change that caused it.
      this.log.error({ err: error, portalId, type: message.type }, 'live channel: publish failed');
    }
  }

  /**
   * A stored lock event: refreshes the screens that show it, and raises an alert if it deserves one
   * (unless an alert rule already raised its own: `builtInAlert: false`).
   */
  async publishDeviceEvent(
    portalId: string,
    event: DeviceEvent,
    { builtInAlert = true }: { builtInAlert?: boolean } = {},
  ): Promise<void> {
    await this.publish(portalId, { type: 'device.event', event });
    const notification = builtInAlert ? notificationForDeviceEvent(event) : null;
    if (notification) await this.publish(portalId, { type: 'notification', notification });
  }

  /**
   * A lock's new status (the record as the devices list shows it). Given the status before the
   * change, going offline, coming back or a battery falling to its low level also raises an alert.
   */
  async publishDeviceStatus(
    portalId: string,
    device: Device,
    previous: Pick<Device, 'online' | 'battery'> | null = null,
    { builtInAlert = true }: { builtInAlert?: boolean } = {},
  ): Promise<void> {
    await this.publish(portalId, { type: 'device.status', device });
    const notification = builtInAlert ? notificationForStatusChange(previous, device) : null;
    if (notification) await this.publish(portalId, { type: 'notification', notification });
  }

  /**
   * From the bus: hands one published message to this server's subscribers of the portal that
   * its audience includes, and keeps it for a while (`LiveReplay`). Admins get the text as
   * published; for basic users the message is read (and its member view written) once, then each
   * socket costs a set lookup: no database read.
   */
  private deliver(portalId: string, json: string): void {
    this.replay.record(portalId, json);
    const subscribers = this.subscribers.get(portalId);
    if (!subscribers) return;
    const forMembers = this.memberDeliveryOnce(json);
    for (const connection of subscribers) this.deliverTo(connection, json, forMembers);
  }

  /** One message to one subscriber, if its audience includes them. */
  private deliverTo(
    connection: Connection<Person>,
    json: string,
    forMembers: () => MemberDelivery | null,
  ): void {
    const scope = connection.scope;
    if (!scope) return;
    if (scope.role === 'admin') {
      this.sendText(connection, json);
      return;
    }
    const delivery = forMembers();
    if (delivery && liveAudienceIncludes(delivery.audience, scope)) this.sendText(connection, delivery.json);
  }

  /** `memberDelivery(json)`, read on the first basic user's turn and kept for the others. */
  private memberDeliveryOnce(json: string): () => MemberDelivery | null {
    let read: { delivery: MemberDelivery | null } | null = null;
    return () => (read ??= { delivery: this.memberDelivery(json) }).delivery;
  }

  /** Who among basic users receives a published message, and what; null: none of them. */
  private memberDelivery(json: string): MemberDelivery | null {
    try {
      // Checked against the contract when published; the bus carries it as text.
      const message = JSON.parse(json) as LivePortalMessage;
      const rule = liveAudienceRuleOf(message.type);
      // A type this server does not know (a newer server published it): admins only.
      if (!rule) return null;
      const audience = rule.audience(message);
      if (audience.kind === 'admins') return null;
      return { audience, json: rule.memberView ? JSON.stringify(rule.memberView(message)) : json };
    } catch (error) {
      // Unreadable: admins still get the text as it came, basic users nothing.
      this.log.error({ err: error }, 'live channel: could not read a published message');
      return null;
    }
  }

  private sendText(connection: Connection<Person>, json: string): void {
    const { socket } = connection;
    if (socket.readyState !== WebSocket.OPEN) return;
    // ws queues without blocking; a socket that cannot drain is closed so it cannot hoard memory.
    if (socket.bufferedAmount > (this.options.maxBufferedBytes ?? 1024 * 1024)) {
      this.end(connection, LIVE_CLOSE_CODES.tooSlow, 'Too slow to keep up; reconnect');
      return;
    }
    socket.send(json, (error) => {
      if (error) this.log.debug({ err: error }, 'live channel: send failed');
    });
  }

  /** Takes a freshly opened socket: it must authenticate within LIVE_AUTH_TIMEOUT_MS. */
  accept(socket: WebSocket): void {
    if (this.closing) {
      socket.close(LIVE_CLOSE_CODES.goingAway, 'Server shutting down');
      return;
    }
    const connection: Connection<Person> = {
      socket,
      token: null,
      person: null,
      portalId: null,
      scope: null,
      queue: Promise.resolve(),
      pending: 0,
      answeredPing: true,
      replayed: false,
      closed: false,
      authTimer: null,
    };
    connection.authTimer = setTimeout(
      () => this.end(connection, LIVE_CLOSE_CODES.authTimeout, 'No auth message in time'),
      LIVE_AUTH_TIMEOUT_MS,
    );
    this.connections.add(connection);
    socket.on('message', (data, isBinary) => {
      const text = isBinary ? null : data.toString();
      if (connection.pending >= MAX_PENDING_CLIENT_MESSAGES) {
        this.end(connection, LIVE_CLOSE_CODES.badMessage, 'Too many messages');
        return;
      }
      connection.pending += 1;
      this.enqueue(connection, async () => {
        try {
          await this.handle(connection, text);
        } finally {
          connection.pending -= 1;
        }
      });
    });
    socket.on('pong', () => {
      connection.answeredPing = true;
    });
    socket.on('error', (error) => this.log.debug({ err: error }, 'live channel: socket error'));
    socket.on('close', () => this.forget(connection));
  }

  /** Closes every socket (going away) and stops the timers and the bus. */
  async close(): Promise<void> {
    this.closing = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const connection of [...this.connections]) {
      this.end(connection, LIVE_CLOSE_CODES.goingAway, 'Server shutting down');
    }
    await this.bus.close();
  }

  /** How many sockets are open, and how many subscribe to each portal (for tests and logs). */
  stats(): { sockets: number; portals: Record<string, number> } {
    return {
      sockets: this.connections.size,
      portals: Object.fromEntries([...this.subscribers].map(([id, set]) => [id, set.size])),
    };
  }

  private enqueue(connection: Connection<Person>, work: () => Promise<void>): void {
    connection.queue = connection.queue.then(work).catch((error: unknown) => {
      this.log.error({ err: error }, 'live channel: message handling failed');
    });
  }

  private async handle(connection: Connection<Person>, text: string | null): Promise<void> {
    if (connection.closed) return;
    const parsed = liveClientMessageSchema.safeParse(safeJson(text));
    if (!parsed.success) {
      this.end(connection, LIVE_CLOSE_CODES.badMessage, 'Unknown message');
      return;
    }
    const message = parsed.data;
    if (message.type === 'auth') {
      if (connection.person) {
        this.send(connection, { type: 'error', code: 'bad_request', message: 'Already authenticated' });
        return;
      }
      await this.authenticate(connection, message.token);
      return;
    }
    if (!connection.person) {
      this.end(connection, LIVE_CLOSE_CODES.unauthorized, 'Send auth first');
      return;
    }
    await this.subscribe(connection, connection.person, message.portalId, message.missedMs);
  }

  private async authenticate(connection: Connection<Person>, token: string): Promise<void> {
    const person = await this.verifyOrEnd(connection, token);
    if (person === null || connection.closed) return;
    if (connection.authTimer) clearTimeout(connection.authTimer);
    connection.authTimer = null;
    connection.token = token;
    connection.person = person;
    this.send(connection, { type: 'ready' });
  }

  /** The person behind the token, or null after closing the socket because there is none. */
  private async verifyOrEnd(connection: Connection<Person>, token: string): Promise<Person | null> {
    try {
      return await this.sessions.verify(token);
    } catch (error) {
      if (!(error instanceof LiveSessionEnded)) throw error;
      this.send(connection, { type: 'error', code: 'unauthorized', message: error.message });
      this.end(connection, LIVE_CLOSE_CODES.unauthorized, error.message);
      return null;
    }
  }

  private async subscribe(
    connection: Connection<Person>,
    person: Person,
    portalId: string,
    missedMs: number | undefined,
  ): Promise<void> {
    // Switching: the old portal's messages stop whether or not the new portal is allowed.
    await this.leave(connection);
    const scope = await this.sessions.scopeIn(person, portalId);
    if (!scope) {
      this.send(connection, {
        type: 'error',
        code: 'portal_override_denied',
        message: 'You may not act in that portal',
      });
      return;
    }
    await this.bus.watch(portalId);
    if (connection.closed) {
      await this.bus.unwatch(portalId);
      return;
    }
    this.replay.startCovering(portalId);
    connection.portalId = portalId;
    connection.scope = scope;
    let set = this.subscribers.get(portalId);
    if (!set) this.subscribers.set(portalId, (set = new Set()));
    set.add(connection);
    // What the page may have missed while it loaded, then live: nothing can come in between. Once
    // per socket, as a page asks only on its first subscription: a client cannot make the server
    // send it a minute of messages over and over.
    const missed =
      missedMs === undefined || connection.replayed ? null : this.replay.since(portalId, missedMs);
    if (missed) connection.replayed = true;
    for (const json of missed ?? []) this.deliverTo(connection, json, this.memberDeliveryOnce(json));
    this.send(connection, { type: 'subscribed', portalId, replayed: missed !== null });
  }

  private async leave(connection: Connection<Person>): Promise<void> {
    const portalId = connection.portalId;
    if (!portalId) return;
    connection.portalId = null;
    connection.scope = null;
    const set = this.subscribers.get(portalId);
    set?.delete(connection);
    if (set?.size === 0) {
      this.subscribers.delete(portalId);
      this.replay.stopCovering(portalId);
    }
    await this.bus.unwatch(portalId);
  }

  /** The timer's check: skipped while the previous one still runs. */
  private async recheckPeriodically(): Promise<void> {
    if (this.checking || this.closing) return;
    this.checking = true;
    try {
      await this.recheckSessions();
    } finally {
      this.checking = false;
    }
  }

  /**
   * Checks every socket's session and scope again now (the timer does so every sessionCheckMs).
   * Sign-out, a password change, a suspension or a lost membership must end what a socket
   * receives, as they end the HTTP session, and a role or the locks a person reaches decide what
   * it receives; tokens carry no push, so each socket is checked again. Resolves once each socket
   * has been checked, after anything already queued on it.
   */
  async recheckSessions(): Promise<void> {
    const checks = [...this.connections]
      .filter((connection) => connection.token !== null)
      .map(
        (connection) =>
          new Promise<void>((resolve) => {
            this.enqueue(connection, async () => {
              try {
                await this.recheck(connection);
              } finally {
                resolve();
              }
            });
          }),
      );
    await Promise.all(checks);
  }

  private async recheck(connection: Connection<Person>): Promise<void> {
    if (connection.closed || connection.token === null) return;
    const person = await this.verifyOrEnd(connection, connection.token);
    if (person === null || connection.closed) return;
    connection.person = person;
    const portalId = connection.portalId;
    if (!portalId) return;
    const scope = await this.sessions.scopeIn(person, portalId);
    if (connection.closed) return;
    if (scope) {
      // An admin made a basic user, a person added to or removed from a group: from now on.
      connection.scope = scope;
      return;
    }
    await this.leave(connection);
    this.send(connection, {
      type: 'error',
      code: 'portal_override_denied',
      message: 'You may no longer act in that portal',
    });
  }

  private pingAll(): void {
    for (const connection of this.connections) {
      if (!connection.answeredPing) {
        connection.socket.terminate();
        continue;
      }
      connection.answeredPing = false;
      connection.socket.ping();
    }
  }

  private send(connection: Connection<Person>, message: LiveServerMessage): void {
    if (connection.socket.readyState === WebSocket.OPEN) connection.socket.send(JSON.stringify(message));
  }

  private end(connection: Connection<Person>, code: number, reason: string): void {
    void this.forget(connection);
    // A close reason may be at most 123 bytes.
    connection.socket.close(code, reason.slice(0, 120));
  }

  private async forget(connection: Connection<Person>): Promise<void> {
    if (connection.closed) return;
    connection.closed = true;
    if (connection.authTimer) clearTimeout(connection.authTimer);
    this.connections.delete(connection);
    try {
      await this.leave(connection);
    } catch (error) {
      this.log.warn({ err: error }, 'live channel: could not stop watching a portal');
    }
  }
}

/** Which basic users receive a published message, and the text they receive. */
interface MemberDelivery {
  audience: LiveAudience;
  json: string;
}

function safeJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

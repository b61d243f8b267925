import { LIVE_REPLAY_MAX_MS } from '@latchkey/shared';

/** Past this many messages of one portal within the window, the oldest go (and replay stops vouching). */
const MAX_PER_PORTAL = 500;

interface Recent {
  at: number;
  json: string;
}

interface PortalLog {
  messages: Recent[];
  /** Since when this server has received every message of the portal (ms since the epoch). */
  coveredFrom: number;
  /** The newest message dropped for room: nothing up to it can be vouched for. */
  droppedAt: number;
}

/**
 * The live messages this server received in the last LIVE_REPLAY_MAX_MS, per portal, so a socket
 * that subscribes can be sent what its page may have missed while it loaded (`subscribe`'s
 * `missedMs`). A page reads its screens, then subscribes: a change stored in between used to be
 * caught by reading every screen again at once, two reads of everything on every load; now it is
 * sent, and the screens read again only for what changed.
 *
 * It vouches only for what it saw whole: with one server (`everyPortal`) every message since it
 * started; behind Redis, a portal's messages from the moment this server began watching it until
 * it stopped. `since` answers null when it cannot vouch, and the client then reads everything again.
 */
export class LiveReplay {
  private readonly portals = new Map<string, PortalLog>();
  private readonly startedAt: number;

  constructor(
    /** True when every portal's messages reach this server (one process), watched or not. */
    private readonly everyPortal: boolean,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
  }

  /** Keeps a message delivered for the portal. */
  record(portalId: string, json: string): void {
    const log = this.logOf(portalId);
    if (!log) return;
    const at = this.now();
    log.messages.push({ at, json });
    this.prune(log, at);
    if (log.messages.length > MAX_PER_PORTAL) {
      const dropped = log.messages.splice(0, log.messages.length - MAX_PER_PORTAL);
      log.droppedAt = dropped.at(-1)!.at;
    }
  }

  /** This server now receives every message of the portal (behind Redis: its watch is in place). */
  startCovering(portalId: string): void {
    if (this.everyPortal || this.portals.has(portalId)) return;
    this.portals.set(portalId, { messages: [], coveredFrom: this.now(), droppedAt: 0 });
  }

  /** This server stopped watching the portal: what it holds may have gaps from now on. */
  stopCovering(portalId: string): void {
    if (!this.everyPortal) this.portals.delete(portalId);
  }

  /**
   * The messages of the portal received in the last `missedMs`, oldest first, or null when some of
   * them may be missing (not watched for all that time, too long ago, or dropped for room).
   */
  since(portalId: string, missedMs: number): string[] | null {
    if (missedMs > LIVE_REPLAY_MAX_MS) return null;
    const now = this.now();
    const cutoff = now - missedMs;
    const log = this.portals.get(portalId);
    if (!log) return this.everyPortal && this.startedAt <= cutoff ? [] : null;
    this.prune(log, now);
    if (log.coveredFrom > cutoff || log.droppedAt >= cutoff) return null;
    return log.messages.filter((message) => message.at >= cutoff).map((message) => message.json);
  }

  /** Forgets what is past the window (run now and then: a portal that went quiet holds nothing). */
  sweep(): void {
    const now = this.now();
    for (const [portalId, log] of this.portals) {
      this.prune(log, now);
      if (this.everyPortal && log.messages.length === 0 && log.droppedAt < now - LIVE_REPLAY_MAX_MS) {
        this.portals.delete(portalId);
      }
    }
  }

  private logOf(portalId: string): PortalLog | null {
    const log = this.portals.get(portalId);
    if (log || !this.everyPortal) return log ?? null;
    const created: PortalLog = { messages: [], coveredFrom: this.startedAt, droppedAt: 0 };
    this.portals.set(portalId, created);
    return created;
  }

  private prune(log: PortalLog, now: number): void {
    const oldest = now - LIVE_REPLAY_MAX_MS;
    let stale = 0;
    while (stale < log.messages.length && log.messages[stale]!.at < oldest) stale += 1;
    if (stale > 0) log.messages.splice(0, stale);
  }
}

import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import type { ListingIcalFeedRow } from '../../db/schema';
import { claimDue } from '../../base/jobs/claim-due';
import { PeriodicJob } from '../../base/jobs/periodic-job';
import type { IcalDeps } from './ical-deps';
import { syncFeed } from './ical-sync.service';

/** How often servers look for due feeds (each feed is read every ICAL_SYNC_MINUTES). */
const TICK_MS = 60_000;
/** Feeds read per run. */
const BATCH = 20;

/**
 * The one place feeds are read and applied (docs/decisions.md "iCal imports run as background
 * work"): a `PeriodicJob` (`ical.import`) ticks once a minute across servers; its run claims the
 * feeds that are due with `claimDue` (each moved to a lease, so a feed goes to one server even when
 * runs overlap) and reads them one after another; each read sets the feed's next time. "Sync now"
 * makes a feed due at once (ical-feeds.service `requestSync`) and `wake`s this server's importer, which
 * runs the same claim in the background; the request has answered by then. A read holds the
 * feed's `syncing_until` (a conditional update): a feed is never read twice at once.
 */
export class IcalImporter {
  private readonly job: PeriodicJob | null;
  private pass: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly deps: IcalDeps,
  ) {
    this.job =
      deps.syncMinutes > 0
        ? new PeriodicJob(db, log, {
            name: 'ical.import',
            everyMs: TICK_MS,
            run: ({ now }) => this.runDue(now),
          })
        : null;
  }

  start(): void {
    this.job?.start();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.job?.stop();
    while (this.pass) await this.pass;
  }

  /**
   * Reads the feeds that are due now, in the background (after "sync now"); a wake while a pass
   * runs makes it look once more when it ends. Never throws: failures are logged.
   */
  wake(): void {
    if (this.stopped) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    this.pass = (async () => {
      try {
        do {
          this.again = false;
          while ((await this.runDue()) > 0 && !this.stopped);
        } while (this.again && !this.stopped);
      } catch (error) {
        this.log.error({ err: error }, 'ical: reading due feeds failed');
      } finally {
        this.pass = null;
      }
    })();
  }

  /** Resolves once every feed due now has been read (tests and the bench wait on it, never a clock). */
  async flush(): Promise<void> {
    this.wake();
    while (this.pass) await this.pass;
  }

  /** A claim outlasts one read's deadline and its apply. */
  private get leaseMs(): number {
    return this.deps.fetch.timeoutMs * 2 + 120_000;
  }

  /** Reads every feed that is due (up to a batch); answers how many were read. */
  async runDue(now = new Date()): Promise<number> {
    const due = await claimDue(this.db, {
      table: 'listing_ical_feeds',
      key: 'id',
      dueAt: 'next_fetch_at',
      limit: BATCH,
      leaseMs: this.leaseMs,
      now,
    });
    let read = 0;
    for (const row of due) {
      const feed = await this.hold(row.id, new Date());
      if (!feed) continue;
      read++;
      try {
        const result = await syncFeed(this.db, this.deps, feed, { now: new Date() });
        if (!result.ok)
          this.log.warn({ feedId: feed.id, error: result.feed.lastError }, 'ical: a feed read failed');
      } catch (error) {
        this.log.error({ err: error, feedId: feed.id }, 'ical: importing a feed failed');
      } finally {
        await this.release(feed.id);
      }
    }
    return read;
  }

  /** Takes a feed for one read; null when a read of it is under way (its hold has not run out). */
  async hold(feedId: string, now: Date): Promise<ListingIcalFeedRow | null> {
    const nowIso = now.toISOString();
    const claimed = await this.db
      .updateTable('listing_ical_feeds')
      .set({ syncing_until: new Date(now.getTime() + this.leaseMs).toISOString() })
      .where('id', '=', feedId)
      .where((eb) => eb.or([eb('syncing_until', 'is', null), eb('syncing_until', '<', nowIso)]))
      .returningAll()
      .execute();
    return claimed[0] ?? null;
  }

  async release(feedId: string): Promise<void> {
    await this.db
      .updateTable('listing_ical_feeds')
      .set({ syncing_until: null })
      .where('id', '=', feedId)
      .execute();
  }
}

import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import { claimDue } from './claim-due';

/** What a run is told: its start, and the start of the job's last completed run (null: none yet). */
export interface JobRun {
  now: Date;
  lastDoneAt: Date | null;
}

export interface PeriodicJobOptions {
  /** Unique among jobs: the row in `scheduled_jobs`. */
  name: string;
  everyMs: number;
  run: (run: JobRun) => Promise<unknown>;
}

/**
 * A background job that runs once per period across all servers sharing the database: every server
 * ticks, and the one that claims the period (moves the job's `next_run_at` one period on, through
 * `claimDue`) runs it. A server that dies mid-run leaves the next period to any other. The items a
 * run handles still need their own once-only guard (an atomic update, a unique key), because a
 * server whose clock runs ahead may claim a period early.
 */
export class PeriodicJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<boolean> | undefined;
  private registered = false;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly options: PeriodicJobOptions,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runIfDue(), this.options.everyMs);
    this.timer.unref();
  }

  /** Runs the job now if this server claims the period; answers whether it ran. Errors are logged. */
  runIfDue(now = new Date()): Promise<boolean> {
    // One run at a time in this server: a tick during a long run is skipped, not queued.
    this.running ??= this.claimAndRun(now)
      .catch((error: unknown) => {
        this.log.error({ err: error, job: this.options.name }, 'background job failed');
        return false;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async claimAndRun(now: Date): Promise<boolean> {
    const { name, everyMs, run } = this.options;
    if (!this.registered) {
      // Due at once the first time any server starts it.
      await this.db
        .insertInto('scheduled_jobs')
        .values({ name, next_run_at: new Date(0).toISOString(), last_done_at: null })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      this.registered = true;
    }
    const [claimed] = await claimDue(this.db, {
      table: 'scheduled_jobs',
      key: 'name',
      dueAt: 'next_run_at',
      where: (eb) => eb('name', '=', name),
      limit: 1,
      // A little short of the period, so this server's next tick finds it due despite timer drift.
      leaseMs: everyMs * 0.9,
      now,
    });
    if (!claimed) return false;
    const lastDone = toIso(claimed.last_done_at);
    await run({ now, lastDoneAt: lastDone ? new Date(lastDone) : null });
    await this.db
      .updateTable('scheduled_jobs')
      .set({ last_done_at: now.toISOString() })
      .where('name', '=', name)
      .where((eb) => eb.or([eb('last_done_at', 'is', null), eb('last_done_at', '<', now.toISOString())]))
      .execute();
    return true;
  }
}

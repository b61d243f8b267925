import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import type { DeviceRow } from '../../db/schema';
import { markLocksSeen } from './device-link.repository';
import type { DeviceStatus } from '@latchkey/shared';

/** How often the heartbeats heard are written: one statement for every lock heard meanwhile. */
const FLUSH_EVERY_MS = 1000;

/**
 * Whether a status only says "still here": the lock is online and reports what is stored already.
 * Such a heartbeat needs no write of its own (see SeenLocks); any change is stored at once.
 */
export function isHeartbeatOnly(device: DeviceRow, status: Extract<DeviceStatus, { online: true }>): boolean {
  return (
    Number(device.online) === 1 &&
    device.battery === status.battery &&
    device.lock_state === status.lockState &&
    device.firmware === status.firmware &&
    device.credentials_version === status.credentialsVersion
  );
}

/**
 * Heartbeats, written in batches. Each status a lock sends was its own durable commit, and a commit
 * costs an fsync (about 5 ms here with synchronous=FULL), so 10,000 locks sending one every 30 s
 * (333 a second) were more than SQLite could write: the server fell behind and the sweep marked
 * live locks offline. A heartbeat that changes nothing but the time is now kept here and written
 * with the others heard in the same second, as one UPDATE; a lost second on a crash only makes a
 * lock look silent a second longer. The time written is the batch's earliest, so a lock is never
 * taken for fresher than it is and the sweep's bound holds.
 */
export class SeenLocks {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** A heartbeat from an online lock that changed nothing; written with the next batch. */
  add(deviceId: string, at = Date.now()): void {
    if (!this.pending.has(deviceId)) this.pending.set(deviceId, at);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  /** Writes what was heard so far (one batch at a time). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      const earliest = Math.min(...batch.values());
      try {
        await markLocksSeen(this.db, [...batch.keys()], new Date(earliest).toISOString());
      } catch (error) {
        this.log.error({ err: error, locks: batch.size }, 'device link: heartbeats not written');
      }
    });
    return this.flushing;
  }

  /** Stops the timer and writes the last batch (before the database closes). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}

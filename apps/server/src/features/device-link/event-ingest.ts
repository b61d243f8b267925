import crypto from 'node:crypto';
import type { DeviceEvent, LockEvent } from '@latchkey/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Insertable } from 'kysely';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { DeviceEventsTable } from '../../db/schema';
import { insertDeviceEvents } from '../events/events.repository';
import { resolveEventPeople } from './credential-holders';
import { findLiveLocks } from './device-link.repository';
import { emitDomainEvent } from '../../base/events/domain-events';
import './device-link-events';

/**
 * The database refused a value rather than failing: PostgreSQL's data exceptions (SQLSTATE class
 * 22: a NUL in text, a date out of range, …) or SQLite's equivalents. Such a value is invalid like
 * one that fails its schema; anything else (the database is away) is not.
 */
export function refusedByDatabase(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return /^22[0-9A-Z]{3}$/.test(code) || code === 'SQLITE_TOOBIG' || code === 'SQLITE_MISMATCH';
}

/** PostgreSQL's deadlock and serialization failures: the transaction can simply run again. */
function worthRetrying(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/** How often a batch is tried again after a deadlock before its locks are let go (they resend). */
const RETRIES = 3;

/**
 * What became of each event of a lock message: stored now, stored before (a resend), or refused by
 * the database as invalid. The first two are acknowledged; a refused one is not.
 */
export type EventOutcome = 'stored' | 'duplicate' | 'refused';

/** What `submit` answers: null for a lock that is unknown or deleted (nothing stored, no ack). */
export type SubmitAnswer = EventOutcome[] | null;

/** A stored event, as the logs and the live channel show it, with its portal. */
export interface StoredLockEvent {
  portalId: string;
  event: DeviceEvent;
}

export interface EventIngestOptions {
  /** How long the first event of a batch waits for others to join it. */
  windowMs: number;
  /** The most events one transaction takes; more wait for the next. */
  maxEvents: number;
  /** Transactions in flight at once: 1 for SQLite (one writer), a few for PostgreSQL's pool. */
  concurrency: number;
}

interface Submission {
  deviceId: string;
  events: LockEvent[];
  resolve: (answer: SubmitAnswer) => void;
  reject: (error: unknown) => void;
}

const keyOf = (deviceId: string, eventId: string) => `${deviceId} ${eventId}`;
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A UUID whose first 48 bits are the time in milliseconds (version 7, RFC 9562): stored events'
 * ids then grow with time, so each batch's rows go to the end of the primary key's index instead of
 * to random pages of it. With random ids, once the table outgrew the page cache every insert read
 * and wrote pages all over that index (bench: 10,000 locks, a few hundred thousand events).
 */
export function timeOrderedUuid(now = Date.now()): string {
  const bytes = crypto.randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Group commit for lock events. Each lock message's events are submitted; those that arrive within
 * a few milliseconds, from every lock, go into one transaction: one query for the locks, three or
 * four for the people behind the events, multi-row inserts (once per lock and event id). Only once
 * it has committed (durable: SQLite's synchronous=FULL, PostgreSQL's
 * commit) does `submit` answer, so the lock is acknowledged only for what survives a crash. While a
 * transaction runs the next batch fills, so batches grow with the load instead of the queue.
 */
export class EventIngest {
  private queue: Submission[] = [];
  private queuedEvents = 0;
  private running = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly idle: (() => void)[] = [];

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly options: EventIngestOptions,
    /** Told about what each batch stored, after its commit; never awaited by the locks. */
    private readonly stored: (events: StoredLockEvent[]) => void,
    /**
     * Told which locks each batch heard from (their last-seen time is written with the heartbeats,
     * seen-locks.ts, not in the batch: concurrent batches updating the same locks' rows deadlocked
     * on PostgreSQL, and the time is not part of what an ack promises).
     */
    private readonly seen: (deviceIds: string[]) => void,
  ) {}

  /** Stores a lock message's (valid) events; answers once they are durable. */
  submit(deviceId: string, events: LockEvent[]): Promise<SubmitAnswer> {
    return new Promise((resolve, reject) => {
      this.queue.push({ deviceId, events, resolve, reject });
      this.queuedEvents += events.length;
      this.schedule();
    });
  }

  /** Resolves once everything submitted so far is stored (shutdown). */
  drain(): Promise<void> {
    if (this.queue.length === 0 && this.running === 0) return Promise.resolve();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.startFlushes();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private schedule(): void {
    if (this.queue.length === 0 || this.running >= this.options.concurrency) return;
    // A full batch need not wait for more, only for one turn of the event loop: on SQLite a
    // commit blocks the process, and a backlog of batches run back to back would hold up the acks
    // and live messages of those already stored.
    if (this.queuedEvents >= this.options.maxEvents) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        this.timer = null;
        this.startFlushes();
      }, 0);
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.startFlushes();
    }, this.options.windowMs);
  }

  private startFlushes(): void {
    while (this.queue.length > 0 && this.running < this.options.concurrency) {
      const batch: Submission[] = [];
      let events = 0;
      // Whole messages only; at least one, however large.
      while (
        this.queue.length > 0 &&
        (batch.length === 0 || events + this.queue[0]!.events.length <= this.options.maxEvents)
      ) {
        const next = this.queue.shift()!;
        batch.push(next);
        events += next.events.length;
      }
      this.queuedEvents -= events;
      this.running++;
      void this.flush(batch).finally(() => {
        this.running--;
        if (this.queue.length > 0) this.schedule();
        else if (this.running === 0) for (const resolve of this.idle.splice(0)) resolve();
      });
    }
  }

  private async flush(batch: Submission[]): Promise<void> {
    try {
      const { answers, stored } = await this.commit(batch);
      batch.forEach((submission, index) => submission.resolve(answers[index]!));
      this.seen(batch.flatMap((submission, index) => (answers[index] ? [submission.deviceId] : [])));
      if (stored.length > 0) this.stored(stored);
    } catch (error) {
      for (const submission of batch) submission.reject(error);
    }
  }

  /**
   * One transaction for the batch. Should the database refuse a value in it, the batch is taken
   * apart: each event alone, so that only the refused ones are left out.
   */
  private async commit(
    batch: Submission[],
    attempt = 1,
  ): Promise<{ answers: SubmitAnswer[]; stored: StoredLockEvent[] }> {
    try {
      return await this.db.transaction().execute((trx) => storeBatch(trx, batch));
    } catch (error) {
      if (worthRetrying(error) && attempt <= RETRIES) {
        this.log.warn({ err: error, attempt }, 'device link: a batch of events met a deadlock; trying again');
        return this.commit(batch, attempt + 1);
      }
      const single = batch.length === 1 && batch[0]!.events.length === 1;
      if (!refusedByDatabase(error)) throw error;
      if (single) return { answers: [['refused']], stored: [] };
      this.log.warn(
        { err: error },
        'device link: the database refused a value in a batch of events; storing them one by one',
      );
      const answers: SubmitAnswer[] = [];
      const stored: StoredLockEvent[] = [];
      for (const submission of batch) {
        const outcomes: EventOutcome[] = [];
        let known = true;
        for (const event of submission.events) {
          const one = await this.commit([{ ...submission, events: [event] }]);
          if (one.answers[0] === null) known = false;
          else outcomes.push(one.answers[0]![0]!);
          stored.push(...one.stored);
        }
        answers.push(known ? outcomes : null);
      }
      return { answers, stored };
    }
  }
}

/** Stores a batch inside one transaction; answers each submission's outcomes and what was stored. */
async function storeBatch(
  db: Database,
  batch: Submission[],
): Promise<{ answers: SubmitAnswer[]; stored: StoredLockEvent[] }> {
  const receivedAt = nowIso();
  const locks = new Map(
    (
      await findLiveLocks(
        db,
        batch.map((submission) => submission.deviceId),
      )
    ).map((lock) => [lock.id, lock]),
  );
  // Each (lock, event id) once, the first copy kept: a lock resending within one batch is a duplicate.
  const fresh = new Map<
    string,
    { lock: { id: string; portal_id: string; name: string }; event: LockEvent }
  >();
  for (const { deviceId, events } of batch) {
    const lock = locks.get(deviceId);
    if (!lock) continue;
    for (const event of events) {
      const key = keyOf(deviceId, event.eventId);
      if (!fresh.has(key)) fresh.set(key, { lock, event });
    }
  }
  const items = [...fresh.values()];
  const people = await resolveEventPeople(
    db,
    items.map(({ lock, event }) => ({
      portalId: lock.portal_id,
      deviceId: lock.id,
      credentialId: event.credentialId,
      commandId: event.commandId,
    })),
  );
  const rows: Insertable<DeviceEventsTable>[] = items.map(({ lock, event }, index) => ({
    id: timeOrderedUuid(),
    portal_id: lock.portal_id,
    device_id: lock.id,
    event_id: event.eventId,
    type: event.type,
    method: event.method,
    credential_id: event.credentialId,
    user_id: people[index]!.userId,
    reason: event.reason,
    occurred_at: new Date(event.ts).toISOString(),
    received_at: receivedAt,
  }));
  // Inserted in one order in every batch (lock, then event id): two batches holding copies of the
  // same events (a lock resending before its ack) then wait for each other instead of deadlocking.
  // The live channel still gets them in the order they came.
  const byKey = [...rows].sort(
    (a, b) => compare(a.device_id, b.device_id) || compare(a.event_id, b.event_id),
  );
  const inserted = rows.length > 0 ? await insertDeviceEvents(db, byKey) : new Set<string>();

  // The live channel is told from what was inserted, not from reading it back.
  const stored: StoredLockEvent[] = [];
  rows.forEach((row, index) => {
    if (!inserted.has(keyOf(row.device_id, row.event_id))) return;
    const { lock } = items[index]!;
    stored.push({
      portalId: lock.portal_id,
      event: {
        _id: row.id,
        eventId: row.event_id,
        device: { _id: lock.id, name: lock.name },
        type: row.type,
        method: row.method as DeviceEvent['method'],
        user: people[index]!.user,
        credentialId: row.credential_id ?? null,
        reason: row.reason ?? null,
        occurredAt: row.occurred_at as string,
        receivedAt,
      },
    });
  });
  // Heard in this transaction (features/webhooks writes its deliveries here).
  if (stored.length > 0)
    await emitDomainEvent(db, 'LockEventsStored', { events: stored, now: new Date(receivedAt) });
  const claimed = new Set<string>();
  const answers = batch.map(({ deviceId, events }) => {
    if (!locks.has(deviceId)) return null;
    return events.map((event): EventOutcome => {
      const key = keyOf(deviceId, event.eventId);
      // Stored by this batch: the first submission naming it says so, any other copy is a duplicate.
      if (inserted.has(key) && !claimed.has(key)) {
        claimed.add(key);
        return 'stored';
      }
      return 'duplicate';
    });
  });
  return { answers, stored };
}

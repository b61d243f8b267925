import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn, setTimeout as pause } from 'node:timers/promises';
import { addDaysToDate, type AuditAction } from '@latchkey/shared';
import { PostgresAdapter, type Insertable } from 'kysely';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type {
  DeviceRow,
  ListingAccessListRow,
  ListingBlockRow,
  ListingIcalFeedRow,
  ListingRow,
  StayRow,
  StaysTable,
} from '../../db/schema';
import { changeAccess, recordTouchedLocks, type Touch } from '../../base/access-changes/touched-locks';
import { appendAuditEntry } from '../../base/audit/audit.repository';
import { listAccessList, listLocksOfListing, lockListingRow } from '../listings/listings.repository';
import {
  entriesPerLock,
  expireFinishedAccess,
  lockCapacities,
  reconcileStayAccess,
} from '../stays/stay-access';
import { findStay, insertStay, updateStay } from '../stays/stays.repository';
import {
  decidedElsewhereSince,
  listApprovedStaysAndOwnerBlocks,
  listFeedBlocks,
  listFeedStays,
} from './calendar.repository';
import { deleteBlocks, insertBlocks, updateBlockDates } from '../listings/listing-blocks.repository';
import { todayOn } from './calendar.service';
import { guestNameOf, type FeedEvent } from './ical-parse';

/**
 * Applying a feed's events to a listing (docs/decisions.md "iCal imports run as background work").
 * It runs in the import job, never in a request, and in three steps:
 *
 * 1. `planImport` (pure): the feed against what is stored, in one pass over both: the listing's
 *    imported stays and blocks are read once, and what to add, re-approve, rename, cancel and which
 *    blocks to insert, move or delete is worked out in memory.
 * 2. The writes, in short transactions (`BatchWriter`): each holds the listing's row (as an approval
 *    does), takes as many items as fit in ~10 ms (SQLite; 250 ms on PostgreSQL, where requests run
 *    meanwhile), names the locks it touched in the recompute outbox
 *    (so a crash leaves them to be recomputed) and commits; then the job yields to the event loop
 *    (and, on SQLite, whose one connection every request waits for, pauses as long as it worked).
 *    Lock capacity is counted once per batch and per item in memory, instead of building every
 *    lock's set for every reservation.
 * 3. Once every batch committed (or one failed), the locks the import touched are recomputed once:
 *    one `changeAccess` names them all, and the device link is woken once.
 */

/** How far ahead imported reservations and blocks are taken (as for requests). */
export const HORIZON_DAYS = 730;

/** What one read changed. */
export interface ImportCounts {
  added: number;
  changed: number;
  cancelled: number;
  flagged: number;
  blocks: number;
}

/** Who a sync acts for in the change log: the person who pressed "sync now", or nobody (the job). */
export interface SyncActor {
  userId: string | null;
  ip: string | null;
}

/** A reservation of the feed as a stay would carry it. */
interface Reservation {
  event: FeedEvent;
  guestName: string;
  note: string;
}

/** What one read means for the stored stays and blocks. */
export interface ImportPlan {
  /** New reservations: approved when the locks can take them, else kept as requests. */
  add: Reservation[];
  /** Stored stays to approve (again): dates moved, a request, or listed again after a cancel. */
  approve: (Reservation & { current: StayRow })[];
  /** Approved stays whose guest name or note changed, nothing else. */
  rename: (Reservation & { current: StayRow })[];
  /** Stays the feed no longer lists, or lists as cancelled. */
  cancel: { current: StayRow; reason: string }[];
  blocks: {
    insert: FeedEvent[];
    update: { block: ListingBlockRow; event: FeedEvent }[];
    remove: ListingBlockRow[];
    /** Blocks the feed holds after this read. */
    count: number;
  };
}

const blockNote = (event: FeedEvent) => event.summary.slice(0, 200);

/**
 * The feed's events against the stays and blocks it brought before, in one pass: nothing is read
 * or written here. Reservations the owner declined or cancelled stay as the owner left them;
 * stays that have ended are history and are left as they are.
 */
export function planImport(input: {
  feedName: string;
  events: readonly FeedEvent[];
  stays: readonly StayRow[];
  blocks: readonly ListingBlockRow[];
  today: string;
}): ImportPlan {
  const { feedName, events, today } = input;
  const horizon = addDaysToDate(today, HORIZON_DAYS);
  const relevant = events.filter((e) => e.endDate >= today && e.startDate <= horizon);
  const reservations = relevant.filter((e) => e.kind === 'reservation' && !e.cancelled);
  const blockEvents = relevant.filter((e) => e.kind === 'block' && !e.cancelled);
  const cancelledThere = new Set(events.filter((e) => e.cancelled).map((e) => e.uid));
  const stored = new Map(input.stays.map((s) => [s.external_ref ?? '', s]));
  const plan: ImportPlan = {
    add: [],
    approve: [],
    rename: [],
    cancel: [],
    blocks: { insert: [], update: [], remove: [], count: 0 },
  };

  const live = new Set<string>();
  for (const event of reservations) {
    live.add(event.uid);
    const reservation = {
      event,
      guestName: guestNameOf(event.summary, feedName),
      note: event.description.slice(0, 1000),
    };
    const current = stored.get(event.uid);
    if (!current) {
      plan.add.push(reservation);
      continue;
    }
    // The owner turned it down or cancelled it here: their word stands.
    if (current.state === 'declined' || (current.state === 'cancelled' && Number(current.ical_gone) === 0)) {
      continue;
    }
    const datesChanged = current.start_date !== event.startDate || current.end_date !== event.endDate;
    if (current.state !== 'approved' || datesChanged || Number(current.ical_gone) === 1) {
      plan.approve.push({ ...reservation, current });
    } else if (current.guest_name !== reservation.guestName || current.note !== reservation.note) {
      plan.rename.push({ ...reservation, current });
    }
  }

  for (const stay of stored.values()) {
    if (live.has(stay.external_ref ?? '')) continue;
    if (stay.end_date < today) continue;
    if (stay.state !== 'approved' && stay.state !== 'requested') continue;
    const reason = cancelledThere.has(stay.external_ref ?? '')
      ? `Cancelled on ${feedName}`
      : `No longer on the ${feedName} calendar`;
    plan.cancel.push({ current: stay, reason });
  }

  const storedBlocks = new Map(input.blocks.map((b) => [b.external_ref ?? '', b]));
  const wanted = new Set<string>();
  for (const event of blockEvents) {
    wanted.add(event.uid);
    const block = storedBlocks.get(event.uid);
    if (!block) plan.blocks.insert.push(event);
    else if (
      block.start_date !== event.startDate ||
      block.end_date !== event.endDate ||
      block.note !== blockNote(event)
    ) {
      plan.blocks.update.push({ block, event });
    }
  }
  for (const [uid, block] of storedBlocks) if (!wanted.has(uid)) plan.blocks.remove.push(block);
  plan.blocks.count = wanted.size;
  return plan;
}

/** Blocks written per statement (under both databases' bound-parameter limits: 11 per row). */
const BLOCKS_PER_STATEMENT = 200;
/**
 * The longest a batch's transaction may run before it commits. SQLite: the event loop (and every
 * request's query) waits meanwhile, so a batch is short. PostgreSQL: the batch mostly waits for
 * the database and requests run meanwhile; only the owner's approvals of this listing wait (the
 * listing's row), so a batch may be longer and the import pays fewer commits.
 */
const BATCH_BUDGET_MS = { sqlite: 10, postgres: 250 };
/** And at most this many items, however fast they go. */
const BATCH_MAX_ITEMS = 200;

/** A change the batch writer makes: a stay written, with the stay to announce once it commits. */
type Announce = (stay: StayRow) => void;

/**
 * Runs many small writes of one listing in short transactions. Each transaction holds the
 * listing's row (the lock approvals take: stays/stay-rules.ts `approveIn`), so an owner's approval of
 * this listing waits for a batch, never for the whole import; the locks a batch touched go to the
 * recompute outbox in the batch's own transaction, and are kept to be recomputed once at the end.
 */
class BatchWriter {
  readonly touchedLocks = new Set<string>();
  /** Batches committed (tests and the bench look at it). */
  batches = 0;
  private readonly token = crypto.randomUUID();
  private readonly pauses: boolean;
  private readonly budgetMs: number;

  constructor(
    private readonly db: Database,
    private readonly listing: ListingRow,
    private readonly announce: Announce,
  ) {
    // SQLite has one connection: every request's query waits while a batch runs. Pausing as long as
    // the batch worked leaves at least half of the time to requests. PostgreSQL serves them meanwhile.
    this.pauses = !(db.getExecutor().adapter instanceof PostgresAdapter);
    this.budgetMs = this.pauses ? BATCH_BUDGET_MS.sqlite : BATCH_BUDGET_MS.postgres;
  }

  /**
   * Writes `items` with `write`, as many per transaction as the budget allows. `before` runs at
   * the start of each transaction (after the listing's row is held), for what a batch must read
   * fresh.
   */
  async run<T>(
    items: readonly T[],
    write: (trx: Database, touch: Touch, item: T, announce: (stay: StayRow) => void) => Promise<void>,
    before?: (trx: Database, touch: Touch) => Promise<void>,
  ): Promise<void> {
    let next = 0;
    while (next < items.length) {
      const started = performance.now();
      const locks = new Set<string>();
      const changed: StayRow[] = [];
      await this.db.transaction().execute(async (trx) => {
        const touch: Touch = async (portalId, touched) => {
          if (typeof touched === 'object' && 'locks' in touched)
            for (const id of touched.locks) locks.add(id);
          else await recordTouchedLocks(trx, portalId, touched, this.token);
        };
        await lockListingRow(trx, this.listing.portal_id, this.listing.id);
        await before?.(trx, touch);
        let taken = 0;
        do {
          await write(trx, touch, items[next + taken]!, (stay) => changed.push(stay));
          taken++;
        } while (
          next + taken < items.length &&
          taken < BATCH_MAX_ITEMS &&
          performance.now() - started < this.budgetMs
        );
        if (locks.size > 0) {
          await recordTouchedLocks(trx, this.listing.portal_id, { locks: [...locks] }, this.token);
        }
        next += taken;
      });
      this.batches++;
      for (const id of locks) this.touchedLocks.add(id);
      for (const stay of changed) this.announce(stay);
      await this.yield(performance.now() - started);
    }
  }

  /** Lets requests run between batches. */
  async yield(workedMs: number): Promise<void> {
    await nextTurn();
    if (this.pauses) await pause(Math.min(Math.ceil(workedMs), 100));
  }

  /** Recomputes every lock the import touched, once: one change naming them all. */
  async recomputeTouched(): Promise<void> {
    if (this.touchedLocks.size === 0) return;
    const locks = [...this.touchedLocks];
    this.touchedLocks.clear();
    await changeAccess(this.db, (_trx, touch) => touch(this.listing.portal_id, { locks }));
  }
}

/**
 * What the listing's locks can still take: entries free per lock, counted from the locks' sets
 * once and spent in memory. Counted again in a batch only when someone else approved a stay of the
 * listing since (between two batches: the batch holds the listing's row, as approvals do).
 */
class Room {
  private free = new Map<string, number>();
  private countedAt: string | null = null;

  constructor(
    private readonly locks: readonly DeviceRow[],
    private readonly accessList: readonly ListingAccessListRow[],
    private readonly listing: ListingRow,
    private readonly feedId: string,
  ) {}

  /** Counts the locks' sets as they are in `trx`, unless nothing else was approved since the last count. */
  async count(trx: Database): Promise<void> {
    const at = nowIso();
    if (this.countedAt !== null) {
      const { portal_id: portalId, id: listingId } = this.listing;
      if (!(await decidedElsewhereSince(trx, portalId, listingId, this.feedId, this.countedAt))) return;
    }
    const capacities = await lockCapacities(trx, this.listing.portal_id, this.locks);
    this.free = new Map(capacities.map((c) => [c.deviceId, c.capacity - c.used]));
    this.countedAt = at;
  }

  /** Takes room for one more stay's access; answers why not when a lock is full. */
  take(): string | null {
    const full = this.locks.find((lock) => (this.free.get(lock.id) ?? 0) < this.needs(lock));
    if (full) {
      return `${full.name} is full: its model holds no more credentials. Remove codes it no longer needs (finished stays are freed first), then approve it`;
    }
    for (const lock of this.locks) this.free.set(lock.id, this.free.get(lock.id)! - this.needs(lock));
    return null;
  }

  private needs(lock: DeviceRow): number {
    return entriesPerLock(lock, this.accessList.length);
  }
}

/**
 * Applies a feed's events to the listing's stays and blocks (the import job's read, or the demo's
 * bundled calendar). Answers what changed and the warnings for the owner.
 */
export async function applyImport(
  db: Database,
  feed: ListingIcalFeedRow,
  listing: ListingRow,
  events: readonly FeedEvent[],
  options: { actor: SyncActor; now: Date; announce?: Announce },
): Promise<{ counts: ImportCounts; warnings: string[]; batches: number }> {
  const { actor, now } = options;
  const portalId = feed.portal_id;
  const [locks, accessList, stays, blocks] = await Promise.all([
    listLocksOfListing(db, portalId, listing.id),
    listAccessList(db, portalId, listing.id),
    listFeedStays(db, portalId, feed.id),
    listFeedBlocks(db, portalId, feed.id),
  ]);
  const today = todayOn(locks, now);
  const plan = planImport({ feedName: feed.name, events, stays, blocks, today });
  const counts: ImportCounts = { added: 0, changed: 0, cancelled: 0, flagged: 0, blocks: plan.blocks.count };
  const waiting: string[] = [];
  const booked: string[] = [];
  const writer = new BatchWriter(db, listing, options.announce ?? (() => {}));
  const facts = (stay: StayRow) => ({ stay, listing, locks, accessList });
  const audit = (trx: Database, action: AuditAction, stayId: string, after: object, before?: object) =>
    appendAuditEntry(trx, portalId, {
      actorUserId: actor.userId,
      action,
      entityType: 'stay',
      entityId: stayId,
      before,
      after: { feed: feed.name, ...after },
      ip: actor.ip,
    });
  /** A stay row as written, read back in the batch (what access is reconciled from and announced). */
  const reread = async (trx: Database, stayId: string) =>
    (await findStay(trx, portalId, listing.id, stayId))!;

  try {
    // Cancellations first: they free the slots the new reservations are counted against.
    await writer.run(plan.cancel, async (trx, touch, { current, reason }, announce) => {
      await updateStay(trx, portalId, current.id, {
        state: current.state === 'approved' ? 'cancelled' : 'declined',
        reason,
        ical_gone: 1,
      });
      const fresh = await reread(trx, current.id);
      await reconcileStayAccess(trx, touch, facts(fresh), now);
      await audit(
        trx,
        'stay.import.cancel',
        current.id,
        { state: fresh.state, reason },
        { state: current.state },
      );
      counts.cancelled++;
      announce(fresh);
    });

    await writer.run(plan.rename, async (trx, touch, { current, guestName, note }, announce) => {
      await updateStay(trx, portalId, current.id, { guest_name: guestName, note });
      const fresh = await reread(trx, current.id);
      await reconcileStayAccess(trx, touch, facts(fresh), now);
      announce(fresh);
    });

    // New and changed reservations: approved through the same access path as any stay, the locks'
    // room counted once per batch; one the locks cannot take is kept as a request for the owner.
    const room = locks.length > 0 ? new Room(locks, accessList, listing, feed.id) : null;
    const approvals: (Reservation & { current: StayRow | null })[] = [
      ...plan.approve,
      ...plan.add.map((r) => ({ ...r, current: null })),
    ];
    let expired = false;
    await writer.run(
      approvals,
      async (trx, touch, { event, guestName, note, current }, announce) => {
        // An approved stay whose dates move keeps its entries; any other takes new ones.
        const why =
          current?.state === 'approved'
            ? null
            : room
              ? room.take()
              : `${listing.title} opens no lock: add one first`;
        const at = nowIso();
        const stayId = current?.id ?? crypto.randomUUID();
        if (why !== null) {
          waiting.push(`${guestName} (${event.startDate} to ${event.endDate})`);
          waiting.push(why);
          if (current) return;
          // The reservation is kept as a request: the owner frees a lock, then approves it.
          await insertStay(
            trx,
            importedStay(portalId, listing.id, feed.id, stayId, { event, guestName, note }, at),
          );
          await audit(trx, 'stay.import.add', stayId, {
            guestName,
            startDate: event.startDate,
            endDate: event.endDate,
            state: 'requested',
            why,
          });
          counts.added++;
          announce(await reread(trx, stayId));
          return;
        }
        if (!current) {
          await insertStay(trx, {
            ...importedStay(portalId, listing.id, feed.id, stayId, { event, guestName, note }, at),
            state: 'approved',
            decided_at: at,
          });
        } else {
          const wasApproved = current.state === 'approved';
          await updateStay(trx, portalId, stayId, {
            guest_name: guestName,
            note,
            ical_gone: 0,
            reason: null,
            state: 'approved',
            start_date: event.startDate,
            end_date: event.endDate,
            ...(!wasApproved && { decided_at: at, decided_by: null }),
          });
        }
        const fresh = await reread(trx, stayId);
        await reconcileStayAccess(trx, touch, facts(fresh), now);
        if (current) {
          await audit(
            trx,
            'stay.import.change',
            stayId,
            { startDate: fresh.start_date, endDate: fresh.end_date, state: fresh.state },
            { startDate: current.start_date, endDate: current.end_date, state: current.state },
          );
          counts.changed++;
        } else {
          await audit(trx, 'stay.import.add', stayId, {
            guestName,
            startDate: fresh.start_date,
            endDate: fresh.end_date,
          });
          counts.added++;
        }
        booked.push(stayId);
        announce(fresh);
      },
      async (trx, touch) => {
        if (!room) return;
        // Finished stays free their slots first (once), then the sets are counted as they are now.
        if (!expired) {
          await expireFinishedAccess(
            trx,
            touch,
            portalId,
            now,
            locks.map((l) => l.id),
          );
          expired = true;
        }
        await room.count(trx);
      },
    );

    // Blocks: the feed's nights marked not available, kept in step with it. New ones and removed
    // ones go many rows per statement (they touch no lock).
    const chunks = <T>(items: readonly T[], size: number): T[][] =>
      Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
    await writer.run(chunks(plan.blocks.insert, BLOCKS_PER_STATEMENT), async (trx, _touch, events) => {
      const at = nowIso();
      await insertBlocks(
        trx,
        events.map((event) => ({
          id: crypto.randomUUID(),
          portal_id: portalId,
          listing_id: listing.id,
          start_date: event.startDate,
          end_date: event.endDate,
          note: blockNote(event),
          source: 'ical' as const,
          ical_feed_id: feed.id,
          external_ref: event.uid,
          created_by: null,
          created_at: at,
        })),
      );
    });
    await writer.run(plan.blocks.update, async (trx, _touch, { block, event }) => {
      await updateBlockDates(trx, portalId, block.id, {
        start_date: event.startDate,
        end_date: event.endDate,
        note: blockNote(event),
      });
    });
    await writer.run(chunks(plan.blocks.remove, BLOCKS_PER_STATEMENT), async (trx, _touch, removed) => {
      await deleteBlocks(
        trx,
        portalId,
        removed.map((b) => b.id),
      );
    });
  } finally {
    // Whatever committed reaches the locks, once, even when a later batch failed.
    await writer.recomputeTouched();
  }

  const warnings = waitingWarnings(waiting);
  const flags = await doubleBookings(db, portalId, listing.id, today, booked);
  counts.flagged = flags.length;
  warnings.push(...flags);
  return { counts, warnings, batches: writer.batches };
}

/** The reservation as a new stay: a request (approved by the caller when the locks can take it). */
function importedStay(
  portalId: string,
  listingId: string,
  feedId: string,
  stayId: string,
  { event, guestName, note }: Reservation,
  at: string,
): Insertable<StaysTable> {
  return {
    id: stayId,
    portal_id: portalId,
    listing_id: listingId,
    guest_name: guestName,
    guest_email: '',
    guest_phone: null,
    note,
    start_date: event.startDate,
    end_date: event.endDate,
    check_in_time: null,
    check_out_time: null,
    state: 'requested',
    source: 'ical',
    external_ref: event.uid,
    ical_feed_id: feedId,
    reason: null,
    guest_user_id: null,
    access_changed_at: null,
    guest_mailed_at: null,
    decided_at: null,
    decided_by: null,
    created_at: at,
    updated_at: at,
  };
}

/** "Ana (…) waits for you: …", pairs of (who, why); many are summed up rather than listed. */
function waitingWarnings(pairs: readonly string[]): string[] {
  const warnings: string[] = [];
  const shown = Math.min(pairs.length / 2, 3);
  for (let i = 0; i < shown; i++) warnings.push(`${pairs[2 * i]} waits for you: ${pairs[2 * i + 1]}`);
  const more = pairs.length / 2 - shown;
  if (more > 0)
    warnings.push(`${more} more reservation${more === 1 ? '' : 's'} wait for you for the same reason`);
  return warnings;
}

/**
 * Double bookings: each reservation this read approved that overlaps another approved stay or a
 * block of the owner, in words. The listing's approved stays and the owner's blocks are read once
 * and swept in date order (not each against all).
 */
async function doubleBookings(
  db: Database,
  portalId: string,
  listingId: string,
  today: string,
  booked: readonly string[],
): Promise<string[]> {
  if (booked.length === 0) return [];
  // Those that end today or later (after yesterday), however many.
  const { stays, blocks: ownerBlocks } = await listApprovedStaysAndOwnerBlocks(
    db,
    portalId,
    listingId,
    addDaysToDate(today, -1),
  );
  type Nights = { start_date: string; end_date: string };
  const overlaps = (a: Nights, b: Nights) => a.start_date < b.end_date && b.start_date < a.end_date;
  // In start order, an overlapping stay starts before this one ends and at most the longest
  // stay's length before it starts: only that stretch is looked at.
  const longest = Math.max(...stays.map((s) => Date.parse(s.end_date) - Date.parse(s.start_date)), 0);
  const firstStartingFrom = (date: string) => {
    let low = 0;
    let high = stays.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (stays[mid]!.start_date < date) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  const byId = new Map(stays.map((s) => [s.id, s]));
  const warnings: string[] = [];
  let looked = 0;
  for (const id of new Set(booked)) {
    const stay = byId.get(id);
    if (!stay) continue;
    const earliest = new Date(Date.parse(stay.start_date) - longest).toISOString().slice(0, 10);
    let other: (typeof stays)[number] | undefined;
    for (let i = firstStartingFrom(earliest); i < stays.length && stays[i]!.start_date < stay.end_date; i++) {
      const candidate = stays[i]!;
      if (candidate.id !== id && overlaps(candidate, stay)) {
        other = candidate;
        break;
      }
    }
    const block = other ? undefined : ownerBlocks.find((b) => overlaps(b, stay));
    if (other || block) {
      warnings.push(
        `${stay.guest_name} (${stay.start_date} to ${stay.end_date}) overlaps ${
          other
            ? `${other.guest_name}'s stay (${other.start_date} to ${other.end_date})`
            : `nights you blocked (${block!.start_date} to ${block!.end_date})`
        }: a double booking to sort out`,
      );
    }
    if (++looked % 500 === 0) await nextTurn();
  }
  return warnings;
}

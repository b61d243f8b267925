// What both sides of a stay apply: the guest's request (stay-requests.service.ts, approved at once
// when the listing accepts automatically) and the host's decisions (stays.service.ts). Apart so
// that neither side imports the other: today on the listing's clock, its locks, a 400 naming the
// field, and approving a stay inside a change to access.
import { localWallTime } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { DeviceRow, ListingRow, StayRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import type { Touch } from '../../base/access-changes/touched-locks';
import { listLocksOfListing, lockListingRow } from '../listings/listings.repository';
import { findOverlappingBlocks } from '../listings/listing-blocks.repository';
import {
  expireFinishedAccess,
  lockCapacities,
  loadStayFacts,
  reconcileStayAccess,
  refuseOverCapacity,
} from './stay-access';
import { findOverlappingStays, findStay, updateStay } from './stays.repository';

export function field(path: string, message: string): never {
  throw AppError.badRequest(`${path.replace(/^body\./, '')} ${message}`, [{ path, message }]);
}

/** Today on the listing's calendar. */
export function todayAt(timeZone: string, now = new Date()): string {
  return localWallTime(now, timeZone).date;
}

export function locksOf(db: Database, listing: ListingRow): Promise<DeviceRow[]> {
  return listLocksOfListing(db, listing.portal_id, listing.id);
}

/**
 * Approves a stay inside a change to access: checks the nights are still free, frees the slots of
 * finished stays on the listing's locks, gives the guest (and the access list) their access and
 * refuses, with the lock named, when a lock's memory would overflow.
 *
 * Free means no other approved stay and no block (R2): none of the owner's, and none an imported
 * feed marks as not available, except a feed's block lying within the nights this stay already
 * held (the platform echoing this stay back from the export feed, which a change would otherwise
 * collide with). `imported`: an imported reservation is a booking made elsewhere, kept (and
 * flagged on the calendar) even when it overlaps; only a full lock refuses it.
 */
export async function approveIn(
  trx: Database,
  touch: Touch,
  stay: StayRow,
  listing: ListingRow,
  decidedBy: string | null,
  now: Date,
  options: { imported?: boolean; heldBefore?: { startDate: string; endDate: string } | null } = {},
): Promise<StayRow> {
  await lockListingRow(trx, listing.portal_id, listing.id);
  const nights = { startDate: stay.start_date, endDate: stay.end_date };
  if (!options.imported) {
    const overlapping = await findOverlappingStays(trx, listing.portal_id, listing.id, nights, stay.id);
    if (overlapping.length > 0) {
      const other = overlapping[0]!;
      throw AppError.conflict(
        `These nights are taken: ${other.guest_name} stays from ${other.start_date} to ${other.end_date}`,
      );
    }
    const held = options.heldBefore;
    const blocked = (await findOverlappingBlocks(trx, listing.portal_id, listing.id, nights)).filter(
      (block) =>
        block.source === 'owner' ||
        !held ||
        block.start_date < held.startDate ||
        block.end_date > held.endDate,
    );
    if (blocked.length > 0) {
      const block = blocked[0]!;
      throw AppError.conflict(
        block.source === 'owner'
          ? `These nights are blocked from ${block.start_date} to ${block.end_date}${block.note ? ` (${block.note})` : ''}: open them on the calendar first`
          : `These nights are not available on an imported calendar from ${block.start_date} to ${block.end_date}`,
      );
    }
  }
  const at = nowIso();
  const approved: StayRow = {
    ...stay,
    state: 'approved',
    decided_at: stay.state === 'requested' ? at : stay.decided_at,
    decided_by: stay.state === 'requested' ? decidedBy : stay.decided_by,
  };
  await updateStay(trx, stay.portal_id, stay.id, {
    state: 'approved',
    start_date: approved.start_date,
    end_date: approved.end_date,
    check_in_time: approved.check_in_time,
    check_out_time: approved.check_out_time,
    decided_at: toIso(approved.decided_at),
    decided_by: approved.decided_by,
  });
  const facts = await loadStayFacts(trx, approved);
  if (facts.locks.length === 0) throw AppError.conflict(`${listing.title} opens no lock: add one first`);
  await expireFinishedAccess(
    trx,
    touch,
    stay.portal_id,
    now,
    facts.locks.map((l) => l.id),
  );
  await reconcileStayAccess(trx, touch, facts, now);
  refuseOverCapacity(await lockCapacities(trx, stay.portal_id, facts.locks));
  return (await findStay(trx, stay.portal_id, listing.id, stay.id))!;
}

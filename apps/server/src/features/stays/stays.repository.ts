import type { CredentialRejection } from '@latchkey/shared';
import { sql, type Insertable, type Updateable } from 'kysely';
import type { Database } from '../../db/database';
import { containsText } from '../../db/like';
import { nowIso } from '../../db/mappers';
import type { StayAccessRow, StayAccessTable, StayRow, StaysTable } from '../../db/schema';

// Stays and their access. Every query is scoped by portal id, except the access sweep's, which
// looks across portals for stays waiting for their locks (a property of the device link).

export function findStay(db: Database, portalId: string, listingId: string, stayId: string) {
  return db
    .selectFrom('stays')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('listing_id', '=', listingId)
    .where('id', '=', stayId)
    .executeTakeFirst();
}

export function findStayById(db: Database, portalId: string, stayId: string) {
  return db
    .selectFrom('stays')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('id', '=', stayId)
    .executeTakeFirst();
}

export async function insertStay(db: Database, row: Insertable<StaysTable>): Promise<void> {
  await db.insertInto('stays').values(row).execute();
}

export async function updateStay(
  db: Database,
  portalId: string,
  stayId: string,
  patch: Updateable<StaysTable>,
) {
  // Ending a stay (cancelled, declined: by a host or an imported calendar) revokes its guest and
  // review links in the same write: they are signed with this version (share-tokens.ts).
  const ends = patch.state === 'cancelled' || patch.state === 'declined';
  await db
    .updateTable('stays')
    .set({
      ...patch,
      ...(ends && { guest_token_version: sql<number>`guest_token_version + 1` }),
      updated_at: nowIso(),
    })
    .where('portal_id', '=', portalId)
    .where('id', '=', stayId)
    .execute();
}

/** Approved stays of a listing whose nights overlap [startDate, endDate), other than `exceptId`. */
export function findOverlappingStays(
  db: Database,
  portalId: string,
  listingId: string,
  range: { startDate: string; endDate: string },
  exceptId?: string,
): Promise<StayRow[]> {
  let query = db
    .selectFrom('stays')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('listing_id', '=', listingId)
    .where('state', '=', 'approved')
    .where('start_date', '<', range.endDate)
    .where('end_date', '>', range.startDate);
  if (exceptId) query = query.where('id', '<>', exceptId);
  return query.orderBy('start_date').execute();
}

/** Approved stays of a listing that end on or after `fromDate` (what its calendar shows as taken). */
export function listTakenStays(db: Database, portalId: string, listingId: string, fromDate: string) {
  return db
    .selectFrom('stays')
    .select(['start_date', 'end_date'])
    .where('portal_id', '=', portalId)
    .where('listing_id', '=', listingId)
    .where('state', '=', 'approved')
    .where('end_date', '>', fromDate)
    .orderBy('start_date')
    .limit(500)
    .execute();
}

/** Approved stays of a listing that have not ended by `fromDate` (their access follows the listing). */
export function listCurrentStays(db: Database, portalId: string, listingId: string, fromDate: string) {
  return db
    .selectFrom('stays')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('listing_id', '=', listingId)
    .where('state', '=', 'approved')
    .where('end_date', '>=', fromDate)
    .execute();
}

export async function listStaysOfListing(
  db: Database,
  portalId: string,
  listingId: string,
  query: {
    skip: number;
    limit: number;
    search?: string;
    sortBy?: 'startDate' | 'createdAt' | 'guestName';
    descending: boolean;
    state?: StayRow['state'];
    /** upcoming: not ended by `today`; past: ended before it. */
    when?: 'upcoming' | 'past';
    today: string;
  },
) {
  let base = db.selectFrom('stays').where('portal_id', '=', portalId).where('listing_id', '=', listingId);
  if (query.search) {
    const term = query.search;
    base = base.where((eb) => eb.or([containsText('guest_name', term), containsText('guest_email', term)]));
  }
  if (query.state) base = base.where('state', '=', query.state);
  if (query.when === 'upcoming') base = base.where('end_date', '>=', query.today);
  if (query.when === 'past') base = base.where('end_date', '<', query.today);
  const column = { startDate: 'start_date', createdAt: 'created_at', guestName: 'guest_name' } as const;
  const direction = query.descending ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(column[query.sortBy ?? 'startDate'], direction)
      .orderBy('id', direction)
      .limit(query.limit)
      .offset(query.skip)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

// Access

export function listStayAccess(db: Database, portalId: string, stayIds: string[]): Promise<StayAccessRow[]> {
  if (stayIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('stay_access')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('stay_id', 'in', stayIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function insertStayAccess(db: Database, row: Insertable<StayAccessTable>) {
  await db.insertInto('stay_access').values(row).execute();
}

export async function updateStayAccess(
  db: Database,
  portalId: string,
  id: string,
  patch: Updateable<StayAccessTable>,
) {
  await db
    .updateTable('stay_access')
    .set({ ...patch, updated_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('id', '=', id)
    .execute();
}

/** The guest's live access of a stay, by the secret their QR codes name. */
export function findGuestAccess(db: Database, portalId: string, stayId: string) {
  return db
    .selectFrom('stay_access')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('stay_id', '=', stayId)
    .where('holder', '=', 'guest')
    .where('removed_at', 'is', null)
    .executeTakeFirst();
}

/** The locks credentials are bound to (live locks), with the lock's name. */
export function listBindings(db: Database, portalId: string, credentialIds: string[]) {
  if (credentialIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('credential_devices as cd')
    .innerJoin('devices as d', (j) =>
      j.onRef('d.id', '=', 'cd.device_id').onRef('d.portal_id', '=', 'cd.portal_id'),
    )
    .select(['cd.credential_id', 'cd.device_id', 'd.name', 'd.model'])
    .where('cd.portal_id', '=', portalId)
    .where('cd.credential_id', 'in', credentialIds)
    .where('d.deleted_at', 'is', null)
    .execute();
}

/** What the device link knows of these credentials on these locks, read together. */
export async function readSyncFacts(
  db: Database,
  portalId: string,
  deviceIds: string[],
  credentialIds: string[],
) {
  if (deviceIds.length === 0 || credentialIds.length === 0) {
    return { syncs: [], entries: [], rejections: [], waiting: new Set<string>() };
  }
  const [syncs, entries, rejections, waiting] = await Promise.all([
    db
      .selectFrom('device_credential_sync')
      .select(['device_id', 'sent_version', 'confirmed_version'])
      .where('portal_id', '=', portalId)
      .where('device_id', 'in', deviceIds)
      .execute(),
    db
      .selectFrom('device_credential_entries')
      .select(['device_id', 'credential_id', 'since_version'])
      .where('portal_id', '=', portalId)
      .where('device_id', 'in', deviceIds)
      .where('credential_id', 'in', credentialIds)
      .execute(),
    db
      .selectFrom('device_credential_rejections')
      .select(['device_id', 'credential_id', 'version', 'reason'])
      .where('portal_id', '=', portalId)
      .where('device_id', 'in', deviceIds)
      .where('credential_id', 'in', credentialIds)
      .execute(),
    db
      .selectFrom('device_credential_recompute')
      .select('device_id')
      .where('portal_id', '=', portalId)
      .where('device_id', 'in', deviceIds)
      .execute(),
  ]);
  return {
    syncs,
    entries,
    rejections: rejections as {
      device_id: string;
      credential_id: string;
      version: number;
      reason: CredentialRejection;
    }[],
    waiting: new Set(waiting.map((row) => row.device_id)),
  };
}

/** Stays waiting for (or refused by) their locks, oldest change first, across portals. */
export function listStaysAwaitingLocks(db: Database, limit: number) {
  return db
    .selectFrom('stays')
    .selectAll()
    .where('access_state', 'in', ['waiting', 'failed'])
    .orderBy('access_changed_at')
    .limit(limit)
    .execute();
}

/** Live access that ended before `before`, across portals: its slots on the locks are freed. */
export function listFinishedAccess(db: Database, before: string, limit: number) {
  return db
    .selectFrom('stay_access')
    .selectAll()
    .where('removed_at', 'is', null)
    .where('valid_until', '<', before)
    .orderBy('valid_until')
    .limit(limit)
    .execute();
}

/** Nights taken from `fromDate` on: approved stays and every block (the public calendar's "taken"). */
export async function listTakenNights(db: Database, portalId: string, listingId: string, fromDate: string) {
  const [stays, blocks] = await Promise.all([
    db
      .selectFrom('stays')
      .select(['start_date', 'end_date'])
      .where('portal_id', '=', portalId)
      .where('listing_id', '=', listingId)
      .where('state', '=', 'approved')
      .where('end_date', '>', fromDate)
      .orderBy('start_date')
      .limit(1000)
      .execute(),
    db
      .selectFrom('listing_blocks')
      .select(['start_date', 'end_date'])
      .where('portal_id', '=', portalId)
      .where('listing_id', '=', listingId)
      .where('end_date', '>', fromDate)
      .orderBy('start_date')
      .limit(1000)
      .execute(),
  ]);
  return [...stays, ...blocks]
    .map((r) => ({ startDate: r.start_date, endDate: r.end_date }))
    .sort((a, b) => a.startDate.localeCompare(b.startDate) || a.endDate.localeCompare(b.endDate));
}

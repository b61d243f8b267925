import {
  localWallTime,
  nightsBetween,
  type GuestStay,
  type RentalCenter,
  type RentalCenterStay,
  type RentalCenterStaysPage,
  type RentalCenterStaysQuery,
  type StayLockAccess,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { containsText } from '../../db/like';
import { toCount, toIso } from '../../db/mappers';
import type { ListingRow, StayRow } from '../../db/schema';
import type { RequestAuth } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { feedNames, listFeeds } from '../calendars/calendar.repository';
import { listingsWithZones, overlapsOf } from '../calendars/calendar.service';
import { describeStayAccess, stayTimes } from '../stays/stay-access';
import { countPendingRequests, nextArrivals } from '../listings/listings.repository';
import type { StayDeps } from '../rental/rental-context';
import { reviewPath, reviewWindow } from '../reviews/review-window';
import { guestLandingPath } from '../stays/stays.service';

/**
 * The rental center (issue 12, R2; docs/decisions.md "Rentals: calendars, iCal, reviews"): any
 * signed-in person sees what they host in the portal they act in (an admin every listing, a member
 * the listings they look after) and the stays they keep as a guest. Codes stay on the stay screen.
 */

interface Scope {
  portalId: string;
  portalName: string;
  scope: 'admin' | 'listingUser';
  listings: { listing: ListingRow; timeZone: string; today: string }[];
}

/** The listings a person hosts in the portal they act in; null when they host none there. */
async function hostingScope(db: Database, auth: RequestAuth, now: Date): Promise<Scope | null> {
  const acting = auth.acting;
  if (!acting) return null;
  const portalId = acting.portal.id;
  let ids: string[] | undefined;
  if (acting.role !== 'admin') {
    const rows = await db
      .selectFrom('listing_users')
      .select('listing_id')
      .where('portal_id', '=', portalId)
      .where('user_id', '=', auth.user.id)
      .execute();
    ids = rows.map((r) => r.listing_id);
    if (ids.length === 0) return null;
  }
  const listings = (await listingsWithZones(db, portalId, ids)).map((l) => ({
    ...l,
    today: localWallTime(now, l.timeZone).date,
  }));
  return {
    portalId,
    portalName: acting.portal.name,
    scope: acting.role === 'admin' ? 'admin' : 'listingUser',
    listings,
  };
}

/** Stays as the rental center lists them: each lock's state for the guest's access, overlaps, feed. */
async function presentStays(db: Database, scope: Scope, stays: StayRow[]): Promise<RentalCenterStay[]> {
  if (stays.length === 0) return [];
  const byListing = new Map(scope.listings.map((l) => [l.listing.id, l]));
  const ids = stays.map((s) => s.id);
  const [access, names] = await Promise.all([
    describeStayAccess(db, scope.portalId, ids),
    feedNames(
      db,
      scope.portalId,
      stays.map((s) => s.ical_feed_id),
    ),
  ]);
  const flagged = await overlapFlags(db, scope.portalId, stays);
  return stays.map((stay) => {
    const place = byListing.get(stay.listing_id)!;
    const guest = (access.get(stay.id) ?? []).filter((a) => a.holder === 'guest');
    const current = guest.find((a) => !a.removed) ?? guest.at(-1);
    const locks: StayLockAccess[] = current?.locks ?? [];
    return {
      _id: stay.id,
      listingId: stay.listing_id,
      listingTitle: place.listing.title,
      guestName: stay.guest_name,
      startDate: stay.start_date,
      endDate: stay.end_date,
      nights: nightsBetween(stay.start_date, stay.end_date),
      ...stayTimes(stay, place.listing),
      timeZone: place.timeZone,
      state: stay.state,
      source: stay.source,
      feedName: stay.ical_feed_id ? (names.get(stay.ical_feed_id) ?? null) : null,
      accessState: stay.access_state,
      locks,
      overlaps: flagged.has(stay.id),
      createdAt: toIso(stay.created_at),
    };
  });
}

/** Which of these stays overlap another approved stay or an owner's block of their listing. */
async function overlapFlags(db: Database, portalId: string, stays: StayRow[]): Promise<Set<string>> {
  const listingIds = [...new Set(stays.map((s) => s.listing_id))];
  const from = stays.map((s) => s.start_date).sort()[0]!;
  const to = stays
    .map((s) => s.end_date)
    .sort()
    .at(-1)!;
  const [others, blocks] = await Promise.all([
    db
      .selectFrom('stays')
      .selectAll()
      .where('portal_id', '=', portalId)
      .where('listing_id', 'in', listingIds)
      .where('state', '=', 'approved')
      .where('start_date', '<', to)
      .where('end_date', '>', from)
      .limit(5000)
      .execute(),
    db
      .selectFrom('listing_blocks')
      .selectAll()
      .where('portal_id', '=', portalId)
      .where('listing_id', 'in', listingIds)
      .where('source', '=', 'owner')
      .where('start_date', '<', to)
      .where('end_date', '>', from)
      .limit(5000)
      .execute(),
  ]);
  const flagged = new Set<string>();
  for (const listingId of listingIds) {
    const mine = stays.filter((s) => s.listing_id === listingId);
    const pool = [...others.filter((o) => o.listing_id === listingId)];
    for (const stay of mine) if (!pool.some((o) => o.id === stay.id)) pool.push(stay);
    const overlaps = overlapsOf(
      pool,
      blocks.filter((b) => b.listing_id === listingId),
    );
    for (const stay of mine) if ((overlaps.get(stay.id) ?? []).length > 0) flagged.add(stay.id);
  }
  return flagged;
}

/** The stays a person saved to their account as a guest (any portal: the link proved they are the guest). */
async function guestStays(db: Database, deps: StayDeps, userId: string, now: Date): Promise<GuestStay[]> {
  const stays = await db
    .selectFrom('stays as s')
    .innerJoin('listings as l', (j) =>
      j.onRef('l.id', '=', 's.listing_id').onRef('l.portal_id', '=', 's.portal_id'),
    )
    .selectAll('s')
    .select([
      'l.title as listing_title',
      'l.check_in_time as listing_check_in',
      'l.check_out_time as listing_check_out',
    ])
    .where('s.guest_user_id', '=', userId)
    .orderBy('s.start_date', 'desc')
    .limit(50)
    .execute();
  if (stays.length === 0) return [];
  const zones = await db
    .selectFrom('listing_locks as ll')
    .innerJoin('devices as d', (j) =>
      j.onRef('d.id', '=', 'll.device_id').onRef('d.portal_id', '=', 'll.portal_id'),
    )
    .select(['ll.listing_id', 'd.time_zone'])
    .where(
      'll.listing_id',
      'in',
      stays.map((s) => s.listing_id),
    )
    .orderBy('ll.position')
    .execute();
  const zoneOf = new Map<string, string>();
  for (const z of zones) if (!zoneOf.has(z.listing_id)) zoneOf.set(z.listing_id, z.time_zone);
  const reviewed = new Set(
    (
      await db
        .selectFrom('reviews')
        .select('stay_id')
        .where(
          'stay_id',
          'in',
          stays.map((s) => s.id),
        )
        .execute()
    ).map((r) => r.stay_id),
  );
  return stays.map((stay) => {
    const timeZone = zoneOf.get(stay.listing_id) ?? 'UTC';
    const window = reviewWindow(stay, { check_out_time: stay.listing_check_out }, timeZone, now);
    return {
      _id: stay.id,
      listingTitle: stay.listing_title,
      startDate: stay.start_date,
      endDate: stay.end_date,
      checkInTime: stay.check_in_time ?? stay.listing_check_in,
      checkOutTime: stay.check_out_time ?? stay.listing_check_out,
      timeZone,
      state: stay.state,
      accessState: stay.access_state,
      landingPath: stay.state === 'approved' ? guestLandingPath(deps, stay) : null,
      reviewPath: window.open || reviewed.has(stay.id) ? reviewPath(deps, stay) : null,
      reviewed: reviewed.has(stay.id),
    };
  });
}

/** GET rentalcenter. */
export async function getRentalCenter(
  db: Database,
  deps: StayDeps,
  auth: RequestAuth,
  now = new Date(),
): Promise<RentalCenter> {
  const scope = await hostingScope(db, auth, now);
  const guest = await guestStays(db, deps, auth.user.id, now);
  if (!scope) {
    return {
      hosting: null,
      listings: [],
      arrivalsToday: [],
      departuresToday: [],
      stayingNow: 0,
      pendingRequests: { total: 0, items: [] },
      guestStays: guest,
    };
  }
  const { portalId } = scope;
  const ids = scope.listings.map((l) => l.listing.id);
  const todays = scope.listings.map((l) => l.today).sort();
  const earliest = todays[0] ?? localWallTime(now, 'UTC').date;
  const latest = todays.at(-1) ?? earliest;
  const todayOf = new Map(scope.listings.map((l) => [l.listing.id, l.today]));
  const [pendingCounts, arrivals, feeds, aroundToday, pending, pendingTotal, upcoming] = await Promise.all([
    countPendingRequests(db, portalId, ids),
    nextArrivals(db, portalId, ids, earliest),
    listFeeds(db, portalId, ids),
    ids.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('stays')
          .selectAll()
          .where('portal_id', '=', portalId)
          .where('listing_id', 'in', ids)
          .where('state', '=', 'approved')
          .where('start_date', '<=', latest)
          .where('end_date', '>=', earliest)
          .orderBy('start_date')
          .limit(2000)
          .execute(),
    ids.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('stays')
          .selectAll()
          .where('portal_id', '=', portalId)
          .where('listing_id', 'in', ids)
          .where('state', '=', 'requested')
          .orderBy('created_at')
          .orderBy('id')
          .limit(20)
          .execute(),
    ids.length === 0
      ? Promise.resolve(0)
      : db
          .selectFrom('stays')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('portal_id', '=', portalId)
          .where('listing_id', 'in', ids)
          .where('state', '=', 'requested')
          .executeTakeFirstOrThrow()
          .then((r) => toCount(r.n)),
    ids.length === 0
      ? Promise.resolve(new Map<string, number>())
      : db
          .selectFrom('stays')
          .select(['listing_id', (eb) => eb.fn.countAll().as('n')])
          .where('portal_id', '=', portalId)
          .where('listing_id', 'in', ids)
          .where('state', '=', 'approved')
          .where('end_date', '>=', earliest)
          .groupBy('listing_id')
          .execute()
          .then((rows) => new Map(rows.map((r) => [r.listing_id, Number(r.n)]))),
  ]);
  const arriving = aroundToday.filter((s) => s.start_date === todayOf.get(s.listing_id));
  const leaving = aroundToday.filter((s) => s.end_date === todayOf.get(s.listing_id));
  const staying = aroundToday.filter((s) => {
    const today = todayOf.get(s.listing_id)!;
    return s.start_date < today && s.end_date > today;
  });
  const [arrivalsToday, departuresToday, pendingItems] = await Promise.all([
    presentStays(db, scope, arriving),
    presentStays(db, scope, leaving),
    presentStays(db, scope, pending),
  ]);
  return {
    hosting: { portalId, portalName: scope.portalName, scope: scope.scope },
    listings: scope.listings.map(({ listing, timeZone, today }) => {
      const next = arrivals.get(listing.id) ?? null;
      return {
        _id: listing.id,
        title: listing.title,
        timeZone,
        today,
        published: Number(listing.published) === 1,
        pendingRequests: pendingCounts.get(listing.id) ?? 0,
        upcomingStays: upcoming.get(listing.id) ?? 0,
        nextArrival: next && next >= today ? next : null,
        feeds: feeds
          .filter((f) => f.listing_id === listing.id)
          .map((f) => ({
            _id: f.id,
            name: f.name,
            lastSuccessAt: toIso(f.last_success_at),
            lastError: f.last_error,
            lastErrorAt: toIso(f.last_error_at),
            lastWarning: f.last_warning,
          })),
      };
    }),
    arrivalsToday,
    departuresToday,
    stayingNow: staying.length,
    pendingRequests: { total: pendingTotal, items: pendingItems },
    guestStays: guest,
  };
}

const STATE_VALUES = ['requested', 'approved', 'declined', 'cancelled'];
const SOURCE_VALUES = ['request', 'manual', 'ical'];
const ACCESS_VALUES = ['none', 'waiting', 'ready', 'failed'];

function badFilter(message: string): never {
  throw AppError.badRequest(`filterValue ${message}`, [{ path: 'querystring.filterValue', message }]);
}

/**
 * GET rentalcenter/stays: the stays of every listing the person hosts here, paged; sorted by
 * arrival, departure, guest or when asked; filtered by listing, state, when (upcoming: not ended;
 * current: under way; past), source or access state; searched by guest name.
 */
export async function getRentalCenterStays(
  db: Database,
  auth: RequestAuth,
  query: RentalCenterStaysQuery,
  now = new Date(),
): Promise<RentalCenterStaysPage> {
  const scope = await hostingScope(db, auth, now);
  if (!scope || scope.listings.length === 0) return { items: [], total: 0 };
  let ids = scope.listings.map((l) => l.listing.id);
  const today = scope.listings.map((l) => l.today).sort()[0]!;
  let base = db.selectFrom('stays').where('portal_id', '=', scope.portalId);
  const value = query.filterValue ?? '';
  switch (query.filterBy) {
    case 'listingId':
      // A listing outside the person's scope (or another portal's) matches nothing.
      ids = ids.filter((id) => id === value);
      break;
    case 'state':
      if (!STATE_VALUES.includes(value)) badFilter(`must be one of ${STATE_VALUES.join(', ')}`);
      base = base.where('state', '=', value as StayRow['state']);
      break;
    case 'source':
      if (!SOURCE_VALUES.includes(value)) badFilter(`must be one of ${SOURCE_VALUES.join(', ')}`);
      base = base.where('source', '=', value as StayRow['source']);
      break;
    case 'accessState':
      if (!ACCESS_VALUES.includes(value)) badFilter(`must be one of ${ACCESS_VALUES.join(', ')}`);
      base = base.where('access_state', '=', value as StayRow['access_state']);
      break;
    case 'when':
      if (value === 'upcoming') base = base.where('end_date', '>=', today);
      else if (value === 'current')
        base = base
          .where('state', '=', 'approved')
          .where('start_date', '<=', today)
          .where('end_date', '>=', today);
      else if (value === 'past') base = base.where('end_date', '<', today);
      else badFilter('must be upcoming, current or past');
      break;
  }
  if (ids.length === 0) return { items: [], total: 0 };
  base = base.where('listing_id', 'in', ids);
  if (query.search) base = base.where(containsText('guest_name', query.search));
  const column = {
    startDate: 'start_date',
    endDate: 'end_date',
    guestName: 'guest_name',
    createdAt: 'created_at',
  } as const;
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
  return { items: await presentStays(db, scope, rows), total: toCount(count.total) };
}

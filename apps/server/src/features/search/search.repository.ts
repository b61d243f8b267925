import { sql } from 'kysely';
import type { Database } from '../../db/database';
import { containsText } from '../../db/like';
import { isPostgres, sqliteTrigramQuery } from '../../db/search';

/*
 * The global search's queries, one per kind, each scoped by portal id and cut at `limit` rows with
 * no count: the palette shows a few of each kind and never pages. People and locks (a portal may
 * hold hundreds of thousands of them) go through their trigram indexes (db/search.ts: pg_trgm on
 * PostgreSQL, FTS5 on SQLite); cards, listings, stays and bills are read through an index that
 * starts with the portal id, so a search reads that portal's rows of the kind and nobody else's
 * (docs/decisions.md "Global search").
 */

/**
 * The FTS5 queries that narrow people and locks on SQLite (db/search.ts), read before the searches
 * are built; undefined on PostgreSQL, whose trigram indexes serve containsText as it stands.
 */
export async function trigramMatches(db: Database, term: string) {
  if (isPostgres(db)) return { people: undefined, locks: undefined };
  return {
    people: await sqliteTrigramQuery(db, 'search_members', term),
    locks: await sqliteTrigramQuery(db, 'search_devices', term),
  };
}

/** People whose email or shown name contains `term` (`match`: trigramMatches' people). */
export function searchPeople(
  db: Database,
  portalId: string,
  term: string,
  match: string | undefined,
  limit: number,
) {
  let query = db
    .selectFrom('member_directory as d')
    .where((eb) =>
      eb.or(['d.email', 'd.first_name', 'd.last_name'].map((column) => containsText(column, term))),
    );
  if (match === undefined) query = query.where('d.portal_id', '=', portalId);
  else {
    // The FTS rows drive: unary + keeps SQLite off the portal's email index, which it otherwise
    // walked in order, testing each of the portal's people against them.
    query = query
      .where(sql`+d.portal_id`, '=', portalId)
      .where(
        'd.rid',
        'in',
        sql<number>`(select rowid from search_members where search_members match ${match})`,
      );
  }
  return query
    .select(['d.user_id', 'd.email', 'd.first_name', 'd.last_name'])
    .orderBy('d.email')
    .limit(limit);
}

/** Locks (not deleted) whose name contains `term` (`match`: trigramMatches' locks). */
export function searchLocks(
  db: Database,
  portalId: string,
  term: string,
  match: string | undefined,
  limit: number,
) {
  let query = db.selectFrom('devices').where('deleted_at', 'is', null).where(containsText('name', term));
  if (match !== undefined) {
    // The FTS rows drive (as the lock list's search): unary + keeps SQLite off the portal's index.
    query = query
      .where(sql`+portal_id`, '=', portalId)
      .where(
        'id',
        'in',
        sql<string>`(select k.device_id from search_device_keys k where k.rid in (select rowid from search_devices where search_devices match ${match}))`,
      );
  } else {
    query = query.where('portal_id', '=', portalId);
  }
  return query.select(['id', 'name', 'online']).orderBy('name').limit(limit);
}

/**
 * RFID cards whose UID starts with `uidPrefix` (UIDs are stored upper-case hex without separators,
 * so the prefix is a range on the (portal, kind, secret) index) or whose label contains `term`.
 * Only cards: a person's access code is a secret the search must never match.
 */
export function searchCards(
  db: Database,
  portalId: string,
  term: string,
  uidPrefix: string | null,
  limit: number,
) {
  return db
    .selectFrom('credentials as c')
    .leftJoin('member_directory as d', (join) =>
      join.onRef('d.portal_id', '=', 'c.portal_id').onRef('d.user_id', '=', 'c.user_id'),
    )
    .where('c.portal_id', '=', portalId)
    .where('c.kind', '=', 'rfid')
    .where('c.revoked_at', 'is', null)
    .where((eb) => {
      const label = containsText('c.name', term);
      if (!uidPrefix) return label;
      return eb.or([
        eb.and([eb('c.secret', '>=', uidPrefix), eb('c.secret', '<', prefixEnd(uidPrefix))]),
        label,
      ]);
    })
    .select(['c.id', 'c.secret', 'c.name', 'c.user_id', 'd.email', 'd.first_name', 'd.last_name'])
    .orderBy('c.secret')
    .limit(limit);
}

/** The first string after every string starting with `prefix` (its last character raised by one). */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** Listings (not deleted) whose title contains `term`. */
export function searchListings(db: Database, portalId: string, term: string, limit: number) {
  return db
    .selectFrom('listings')
    .where('portal_id', '=', portalId)
    .where('deleted_at', 'is', null)
    .where(containsText('title', term))
    .select(['id', 'title', 'address'])
    .orderBy('title')
    .limit(limit);
}

/** Stays whose guest's name or email contains `term`, the latest first. */
export function searchStays(db: Database, portalId: string, term: string, limit: number) {
  return db
    .selectFrom('stays as s')
    .innerJoin('listings as l', (join) =>
      join.onRef('l.id', '=', 's.listing_id').onRef('l.portal_id', '=', 's.portal_id'),
    )
    .where('s.portal_id', '=', portalId)
    .where((eb) => eb.or([containsText('s.guest_name', term), containsText('s.guest_email', term)]))
    .select([
      's.id',
      's.listing_id',
      's.guest_name',
      's.start_date',
      's.end_date',
      's.state',
      'l.title as listing_title',
    ])
    .orderBy('s.start_date', 'desc')
    .limit(limit);
}

/** The portal's bills whose invoice number contains `term`, the latest first. */
export function searchBills(db: Database, portalId: string, term: string, limit: number) {
  return db
    .selectFrom('bills')
    .where('portal_id', '=', portalId)
    .where('invoice_number', 'is not', null)
    .where(containsText(sql<string>`coalesce(invoice_number, '')`, term))
    .select(['id', 'invoice_number', 'year', 'month', 'total_minor', 'currency'])
    .orderBy('year', 'desc')
    .orderBy('month', 'desc')
    .limit(limit);
}

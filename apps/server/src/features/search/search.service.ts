import {
  formatCalendarRange,
  formatMonth,
  SEARCH_RESULTS_PER_KIND,
  STAY_STATE_LABELS,
  type SearchAnswer,
  type SearchResult,
  personName as sharedPersonName,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import {
  searchBills,
  searchCards,
  searchListings,
  searchLocks,
  searchPeople,
  searchStays,
  trigramMatches,
} from './search.repository';

function personName(row: { email: string | null; first_name: string | null; last_name: string | null }) {
  return sharedPersonName(row.first_name, row.last_name, row.email);
}

/**
 * A card UID as typed ("04:a3 1b"), in the stored form (upper-case hex, no separators), when the
 * term could be the start of one; null otherwise.
 */
export function uidPrefixOf(term: string): string | null {
  const compact = term.replace(/[\s:-]/g, '').toUpperCase();
  return /^[0-9A-F]{2,20}$/.test(compact) ? compact : null;
}

/**
 * The statements a search of `q` runs, one per kind, built but not run (test/search.test.ts reads
 * their query plans).
 */
export async function searchStatements(db: Database, portalId: string, q: string) {
  const limit = SEARCH_RESULTS_PER_KIND;
  const matches = await trigramMatches(db, q);
  return {
    people: searchPeople(db, portalId, q, matches.people, limit),
    locks: searchLocks(db, portalId, q, matches.locks, limit),
    cards: searchCards(db, portalId, q, uidPrefixOf(q), limit),
    listings: searchListings(db, portalId, q, limit),
    stays: searchStays(db, portalId, q, limit),
    bills: searchBills(db, portalId, q, limit),
  };
}

/** GET portal/search: a few of each kind of the portal's records matching `q`, in SEARCH_KINDS order. */
export async function searchPortal(db: Database, portalId: string, q: string): Promise<SearchAnswer> {
  const statements = await searchStatements(db, portalId, q);
  const [people, locks, cards, listings, stays, bills] = await Promise.all([
    statements.people.execute(),
    statements.locks.execute(),
    statements.cards.execute(),
    statements.listings.execute(),
    statements.stays.execute(),
    statements.bills.execute(),
  ]);
  const results: SearchResult[] = [
    ...people.map((row) => ({
      kind: 'person' as const,
      _id: row.user_id,
      title: personName(row),
      detail: row.email,
      ref: null,
    })),
    ...locks.map((row) => ({
      kind: 'lock' as const,
      _id: row.id,
      title: row.name,
      detail: Number(row.online) === 1 ? 'Online' : 'Offline',
      ref: null,
    })),
    ...cards.map((row) => ({
      kind: 'card' as const,
      _id: row.id,
      title: row.name || `Card ${row.secret}`,
      detail: `UID ${row.secret} · ${row.user_id && row.email ? `held by ${personName(row)}` : 'nobody holds it'}`,
      ref: row.user_id && row.email ? row.user_id : null,
    })),
    ...listings.map((row) => ({
      kind: 'listing' as const,
      _id: row.id,
      title: row.title,
      detail: row.address,
      ref: null,
    })),
    ...stays.map((row) => ({
      kind: 'stay' as const,
      _id: row.id,
      title: row.guest_name,
      // The dates and the state in the words the stay's own page uses (time-format.ts, STAY_STATE_LABELS).
      detail: `${row.listing_title} · ${formatCalendarRange(row.start_date, row.end_date)} · ${STAY_STATE_LABELS[row.state]}`,
      ref: row.listing_id,
    })),
    ...bills.map((row) => ({
      kind: 'bill' as const,
      _id: row.id,
      title: row.invoice_number ?? '',
      detail: `Bill for ${formatMonth(row.year, row.month)}`,
      ref: `${row.year}-${String(row.month).padStart(2, '0')}`,
    })),
  ];
  return { q, results };
}

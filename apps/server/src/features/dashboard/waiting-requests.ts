import type { WaitingRequests } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toCount, toIso } from '../../db/mappers';

/** How many waiting requests the dashboard card lists (the badge counts all of them). */
const SHOWN = 5;

/**
 * GET portal/requests/waiting: the stay requests of the portal's listings that wait for the host's
 * answer (state `requested`, listing not deleted), oldest first: the one who asked first has waited
 * longest. Read from the stays and listings tables directly: the dashboard sits below the rental
 * features (docs/ARCHITECTURE.md "Layers") and only counts and names what they stored.
 */
export async function getWaitingRequests(db: Database, portalId: string): Promise<WaitingRequests> {
  const waiting = db
    .selectFrom('stays as s')
    .innerJoin('listings as l', (join) =>
      join.onRef('l.id', '=', 's.listing_id').onRef('l.portal_id', '=', 's.portal_id'),
    )
    .where('s.portal_id', '=', portalId)
    .where('s.state', '=', 'requested')
    .where('l.deleted_at', 'is', null);
  const [rows, count] = await Promise.all([
    waiting
      .select([
        's.id',
        's.listing_id',
        'l.title',
        's.guest_name',
        's.start_date',
        's.end_date',
        's.created_at',
      ])
      .orderBy('s.created_at')
      .orderBy('s.id')
      .limit(SHOWN)
      .execute(),
    waiting.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((row) => ({
      _id: row.id,
      listingId: row.listing_id,
      listingTitle: row.title,
      guestName: row.guest_name,
      startDate: row.start_date,
      endDate: row.end_date,
      createdAt: toIso(row.created_at)!,
    })),
    total: toCount(count.total),
  };
}

import crypto from 'node:crypto';
import type { ClientErrorListQuery, ClientErrorStatus } from '@latchkey/shared';
import { sql } from 'kysely';
import type { Database } from '../../db/database';
import { containsText } from '../../db/like';
import { toCount } from '../../db/mappers';

/** What one report adds: the row it makes, or the count and last sight of the row it matches. */
export interface ErrorSighting {
  fingerprint: string;
  message: string;
  topFrame: string;
  stack: string;
  route: string;
  build: string;
  userAgent: string;
  at: string;
}

/**
 * Counts a sighting on its fingerprint's row, made with the first: one statement (insert, or on
 * the fingerprint's conflict add one and move last_seen), so two servers counting the same error at
 * once both count. A resolved error seen again is open again.
 */
export async function recordSighting(db: Database, sighting: ErrorSighting) {
  return db
    .insertInto('client_errors')
    .values({
      id: crypto.randomUUID(),
      fingerprint: sighting.fingerprint,
      message: sighting.message,
      top_frame: sighting.topFrame,
      stack: sighting.stack,
      route: sighting.route,
      build: sighting.build,
      user_agent: sighting.userAgent,
      count: 1,
      status: 'open',
      first_seen: sighting.at,
      last_seen: sighting.at,
      resolved_at: null,
      resolved_by: null,
    })
    .onConflict((oc) =>
      oc.column('fingerprint').doUpdateSet({
        count: sql<number>`client_errors.count + 1`,
        last_seen: sighting.at,
        status: 'open',
        resolved_at: null,
        resolved_by: null,
      }),
    )
    .returning(['id', 'count'])
    .executeTakeFirstOrThrow();
}

const withResolver = (db: Database) =>
  db
    .selectFrom('client_errors as e')
    .leftJoin('users as u', 'u.id', 'e.resolved_by')
    .selectAll('e')
    .select(['u.first_name as resolver_first', 'u.last_name as resolver_last', 'u.email as resolver_email']);

export type ClientErrorRecord = Awaited<ReturnType<typeof findClientError>> & object;

export function findClientError(db: Database, id: string) {
  return withResolver(db).where('e.id', '=', id).executeTakeFirst();
}

/** The errors seen most recently first, by status and a search of the message, frame or address. */
export async function listClientErrors(db: Database, query: ClientErrorListQuery) {
  let base = db.selectFrom('client_errors as e');
  if (query.status) base = base.where('e.status', '=', query.status);
  const search = query.search?.trim();
  if (search)
    base = base.where((eb) =>
      eb.or([
        containsText('e.message', search),
        containsText('e.top_frame', search),
        containsText('e.route', search),
      ]),
    );
  const [rows, total] = await Promise.all([
    withResolver(db)
      .where('e.id', 'in', base.select('e.id'))
      .orderBy('e.last_seen', 'desc')
      .orderBy('e.id')
      .offset(query.skip)
      .limit(query.limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: toCount(total.n) };
}

export async function setClientErrorStatus(
  db: Database,
  id: string,
  status: ClientErrorStatus,
  by: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('client_errors')
    .set(
      status === 'resolved'
        ? { status, resolved_at: at, resolved_by: by }
        : { status, resolved_at: null, resolved_by: null },
    )
    .where('id', '=', id)
    .execute();
}

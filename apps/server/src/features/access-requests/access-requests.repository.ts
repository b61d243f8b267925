import type { AccessRequestStatus, Schedule } from '@latchkey/shared';
import type { Insertable } from 'kysely';
import type { Database } from '../../db/database';
import { toCount } from '../../db/mappers';
import type { AccessRequestsTable } from '../../db/schema';

// Every query is scoped by portal id.

function withNames(db: Database, portalId: string) {
  return db
    .selectFrom('access_requests as r')
    .innerJoin('devices as d', (j) =>
      j.onRef('d.id', '=', 'r.device_id').onRef('d.portal_id', '=', 'r.portal_id'),
    )
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .leftJoin('users as a', 'a.id', 'r.answered_by')
    .where('r.portal_id', '=', portalId)
    .where('d.deleted_at', 'is', null)
    .selectAll('r')
    .select([
      'd.name as device_name',
      'u.first_name as user_first',
      'u.last_name as user_last',
      'u.email as user_email',
      'a.first_name as answerer_first',
      'a.last_name as answerer_last',
      'a.email as answerer_email',
    ]);
}

export type AccessRequestRecord = NonNullable<Awaited<ReturnType<typeof findAccessRequest>>>;

export function findAccessRequest(db: Database, portalId: string, id: string) {
  return withNames(db, portalId).where('r.id', '=', id).executeTakeFirst();
}

/** A page of the portal's requests (or one person's), the newest first; waiting ones first when unfiltered. */
export async function listAccessRequests(
  db: Database,
  portalId: string,
  query: { skip: number; limit: number; status?: AccessRequestStatus; userId?: string },
) {
  let base = withNames(db, portalId);
  if (query.status) base = base.where('r.status', '=', query.status);
  if (query.userId) base = base.where('r.user_id', '=', query.userId);
  const [rows, total] = await Promise.all([
    base
      .orderBy((eb) => eb.case().when('r.status', '=', 'waiting').then(0).else(1).end())
      .orderBy('r.created_at', 'desc')
      .orderBy('r.id')
      .offset(query.skip)
      .limit(query.limit)
      .execute(),
    base
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: toCount(total.n) };
}

/** The person's waiting request for a lock, if any. */
export function findWaiting(db: Database, portalId: string, deviceId: string, userId: string) {
  return db
    .selectFrom('access_requests')
    .select('id')
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .where('user_id', '=', userId)
    .where('status', '=', 'waiting')
    .executeTakeFirst();
}

/** The locks of the portal a person has a waiting request for. */
export async function waitingLocksOf(db: Database, portalId: string, userId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('access_requests')
    .select('device_id')
    .where('portal_id', '=', portalId)
    .where('user_id', '=', userId)
    .where('status', '=', 'waiting')
    .execute();
  return new Set(rows.map((r) => r.device_id));
}

export async function insertAccessRequest(db: Database, row: Insertable<AccessRequestsTable>): Promise<void> {
  await db.insertInto('access_requests').values(row).execute();
}

/**
 * Answers a waiting request: one UPDATE guarded by its status, so two admins answering at once
 * answer it once (false for the second, and for a request no longer waiting).
 */
export async function answerWaiting(
  db: Database,
  portalId: string,
  id: string,
  answer: {
    status: Exclude<AccessRequestStatus, 'waiting'>;
    schedule?: Schedule | null;
    reason?: string;
    by: string | null;
    at: string;
  },
): Promise<boolean> {
  const result = await db
    .updateTable('access_requests')
    .set({
      status: answer.status,
      schedule_json: answer.schedule === undefined ? null : JSON.stringify(answer.schedule),
      reason: answer.reason ?? '',
      answered_by: answer.by,
      answered_at: answer.at,
      updated_at: answer.at,
    })
    .where('portal_id', '=', portalId)
    .where('id', '=', id)
    .where('status', '=', 'waiting')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Puts a request back to waiting (a grant whose access change failed). */
export async function reopen(db: Database, portalId: string, id: string, at: string): Promise<void> {
  await db
    .updateTable('access_requests')
    .set({ status: 'waiting', schedule_json: null, answered_by: null, answered_at: null, updated_at: at })
    .where('portal_id', '=', portalId)
    .where('id', '=', id)
    .execute();
}

/** The portal's locks by name (what a person may ask for), at most 500. */
export function portalLocks(db: Database, portalId: string) {
  return db
    .selectFrom('devices')
    .select(['id', 'name'])
    .where('portal_id', '=', portalId)
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .limit(500)
    .execute();
}

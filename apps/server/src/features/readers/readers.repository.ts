import type { Insertable, Updateable } from 'kysely';
import type { Database } from '../../db/database';
import type { ReaderEnrollmentRow, ReaderEnrollmentsTable, ReaderRow, ReadersTable } from '../../db/schema';

// Every query an admin's request makes is scoped by portal id; the broker's (a reader's login and
// messages) by the reader id its connection logged in with.

export function listReaders(db: Database, portalId: string): Promise<ReaderRow[]> {
  return db
    .selectFrom('readers')
    .selectAll()
    .where('portal_id', '=', portalId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export function findReader(db: Database, portalId: string, readerId: string): Promise<ReaderRow | undefined> {
  return db
    .selectFrom('readers')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('id', '=', readerId)
    .executeTakeFirst();
}

/** A reader by its own id, for the broker's login and its messages (no portal is known there). */
export function findReaderById(db: Database, readerId: string): Promise<ReaderRow | undefined> {
  return db.selectFrom('readers').selectAll().where('id', '=', readerId).executeTakeFirst();
}

export async function insertReader(db: Database, row: Insertable<ReadersTable>): Promise<void> {
  await db.insertInto('readers').values(row).execute();
}

export async function updateReader(
  db: Database,
  portalId: string,
  readerId: string,
  changes: Updateable<ReadersTable>,
): Promise<void> {
  await db
    .updateTable('readers')
    .set(changes)
    .where('portal_id', '=', portalId)
    .where('id', '=', readerId)
    .execute();
}

/** A reader's status as it reported it (by reader id: the broker's). */
export async function recordReaderStatus(
  db: Database,
  readerId: string,
  status: { online: boolean; firmware?: string; at: string },
): Promise<void> {
  await db
    .updateTable('readers')
    .set({
      online: status.online ? 1 : 0,
      last_seen_at: status.at,
      ...(status.firmware !== undefined ? { firmware: status.firmware } : {}),
    })
    .where('id', '=', readerId)
    .execute();
}

export async function deleteReader(db: Database, portalId: string, readerId: string): Promise<number> {
  const result = await db
    .deleteFrom('readers')
    .where('portal_id', '=', portalId)
    .where('id', '=', readerId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function insertEnrollment(db: Database, row: Insertable<ReaderEnrollmentsTable>): Promise<void> {
  await db.insertInto('reader_enrollments').values(row).execute();
}

export type EnrollmentWithReader = ReaderEnrollmentRow & { reader_name: string };

export function findEnrollment(
  db: Database,
  portalId: string,
  enrollmentId: string,
): Promise<EnrollmentWithReader | undefined> {
  return db
    .selectFrom('reader_enrollments as e')
    .innerJoin('readers as r', 'r.id', 'e.reader_id')
    .selectAll('e')
    .select('r.name as reader_name')
    .where('e.portal_id', '=', portalId)
    .where('e.id', '=', enrollmentId)
    .executeTakeFirst();
}

/** A person's enrollments, newest first (the userPeriph collection's list). */
export function listEnrollments(
  db: Database,
  portalId: string,
  filter: { userId?: string; kind?: 'rfid' | 'fingerprint'; limit: number },
): Promise<EnrollmentWithReader[]> {
  let query = db
    .selectFrom('reader_enrollments as e')
    .innerJoin('readers as r', 'r.id', 'e.reader_id')
    .selectAll('e')
    .select('r.name as reader_name')
    .where('e.portal_id', '=', portalId);
  if (filter.userId) query = query.where('e.user_id', '=', filter.userId);
  if (filter.kind) query = query.where('e.kind', '=', filter.kind);
  return query.orderBy('e.created_at', 'desc').orderBy('e.id').limit(filter.limit).execute();
}

/**
 * Ends a waiting, unexpired enrollment of this reader with its answer; 0 rows when the request is
 * unknown, another reader's, already answered or past its expiry (the answer is then ignored).
 */
export async function completeEnrollment(
  db: Database,
  readerId: string,
  enrollmentId: string,
  outcome: { state: 'read' | 'failed'; value: string | null; error: string | null; at: string },
  /** What the answer says it read: it must be what the request asked for. */
  kind: 'rfid' | 'fingerprint' | null,
): Promise<number> {
  let query = db
    .updateTable('reader_enrollments')
    .set({
      state: outcome.state,
      value: outcome.value,
      error: outcome.error,
      completed_at: outcome.at,
      updated_at: outcome.at,
    })
    .where('id', '=', enrollmentId)
    .where('reader_id', '=', readerId)
    .where('state', '=', 'waiting')
    .where('expires_at', '>', outcome.at);
  if (kind) query = query.where('kind', '=', kind);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Cancels a waiting enrollment of the portal; 0 rows when it was no longer waiting. */
export async function cancelEnrollment(
  db: Database,
  portalId: string,
  enrollmentId: string,
  at: string,
): Promise<number> {
  const result = await db
    .updateTable('reader_enrollments')
    .set({ state: 'cancelled', completed_at: at, updated_at: at })
    .where('portal_id', '=', portalId)
    .where('id', '=', enrollmentId)
    .where('state', '=', 'waiting')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

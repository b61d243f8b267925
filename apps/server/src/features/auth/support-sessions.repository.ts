// Support sessions as records (issue 20, item 1): while platform staff act as a person, each portal
// the person belongs to has a row its admins can read ("Support is acting here"). Started by
// POST user/{id}/session, ended by the support token's sign-out or by its expiry.
import crypto from 'node:crypto';
import type { ActiveSupportSession } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';

/** Records a support session in each of the person's portals. */
export async function recordSupportSession(
  db: Database,
  session: { staffUserId: string; personUserId: string; portalIds: string[]; expiresAt: string },
): Promise<void> {
  if (session.portalIds.length === 0) return;
  const sessionId = crypto.randomUUID();
  const startedAt = nowIso();
  await db
    .insertInto('support_sessions')
    .values(
      session.portalIds.map((portalId) => ({
        id: crypto.randomUUID(),
        portal_id: portalId,
        session_id: sessionId,
        staff_user_id: session.staffUserId,
        person_user_id: session.personUserId,
        started_at: startedAt,
        expires_at: session.expiresAt,
      })),
    )
    .execute();
}

/** Ends every running support session of this staff member as this person (the support token's sign-out). */
export async function endSupportSessions(
  db: Database,
  staffUserId: string,
  personUserId: string,
): Promise<number> {
  const now = nowIso();
  const ended = await db
    .updateTable('support_sessions')
    .set({ ended_at: now })
    .where('staff_user_id', '=', staffUserId)
    .where('person_user_id', '=', personUserId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .execute();
  return ended.length;
}

/** The support sessions acting in a portal now (not ended, not expired), newest first. */
export async function activeSupportSessions(db: Database, portalId: string): Promise<ActiveSupportSession[]> {
  const rows = await db
    .selectFrom('support_sessions as s')
    .innerJoin('users as staff', 'staff.id', 's.staff_user_id')
    .innerJoin('users as person', 'person.id', 's.person_user_id')
    .select([
      's.id',
      's.started_at',
      's.expires_at',
      'staff.id as staff_id',
      'staff.email as staff_email',
      'person.id as person_id',
      'person.email as person_email',
    ])
    .where('s.portal_id', '=', portalId)
    .where('s.ended_at', 'is', null)
    .where('s.expires_at', '>', nowIso())
    .orderBy('s.started_at', 'desc')
    .execute();
  return rows.map((row) => ({
    _id: row.id,
    staff: { _id: row.staff_id, email: row.staff_email },
    person: { _id: row.person_id, email: row.person_email },
    startedAt: toIso(row.started_at),
    expiresAt: toIso(row.expires_at),
  }));
}

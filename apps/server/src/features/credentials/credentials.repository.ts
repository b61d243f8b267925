import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { CredentialRow, CredentialsTable } from '../../db/schema';
import type { Insertable } from 'kysely';

function liveCredentials(db: Database, portalId: string) {
  return db.selectFrom('credentials').where('portal_id', '=', portalId).where('revoked_at', 'is', null);
}

/** The live credentials of some people in a portal. */
export function listLiveCredentialsOfUsers(
  db: Database,
  portalId: string,
  userIds: string[],
): Promise<CredentialRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return liveCredentials(db, portalId)
    .selectAll()
    .where('user_id', 'in', userIds)
    .orderBy('created_at')
    .execute();
}

/** The live credential of a kind with this secret, whoever holds it. */
export function findLiveCredentialBySecret(
  db: Database,
  portalId: string,
  kind: CredentialRow['kind'],
  secret: string,
): Promise<CredentialRow | undefined> {
  return liveCredentials(db, portalId)
    .selectAll()
    .where('kind', '=', kind)
    .where('secret', '=', secret)
    .executeTakeFirst();
}

export async function insertCredential(db: Database, row: Insertable<CredentialsTable>): Promise<void> {
  await db.insertInto('credentials').values(row).execute();
}

/** Revokes a person's live credentials in a portal, of one kind or all kinds. */
export async function revokeCredentialsOfUser(
  db: Database,
  portalId: string,
  userId: string,
  kind?: CredentialRow['kind'],
): Promise<void> {
  let query = db
    .updateTable('credentials')
    .set({ revoked_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (kind) query = query.where('kind', '=', kind);
  await query.execute();
}

import type { Database } from '../../db/database';
import type { ApiKeysTable } from '../../db/schema';
import type { Insertable } from 'kysely';
import { memberNameColumn } from '../../base/tenancy/memberships.repository';

/** A portal's keys, newest first, with the name of the person who made each (if still there). */
export function listApiKeys(db: Database, portalId: string) {
  return keysWithCreator(db, portalId).orderBy('k.created_at', 'desc').orderBy('k.id', 'desc').execute();
}

/** One of a portal's keys, or undefined (another portal's key is not found). */
export function findApiKey(db: Database, portalId: string, keyId: string) {
  return keysWithCreator(db, portalId).where('k.id', '=', keyId).executeTakeFirst();
}

function keysWithCreator(db: Database, portalId: string) {
  return db
    .selectFrom('api_keys as k')
    .leftJoin('users as u', 'u.id', 'k.created_by')
    .leftJoin('memberships as m', (join) =>
      join.onRef('m.user_id', '=', 'k.created_by').onRef('m.portal_id', '=', 'k.portal_id'),
    )
    .where('k.portal_id', '=', portalId)
    .selectAll('k')
    .select([
      'u.email as creator_email',
      memberNameColumn('first_name').as('creator_first_name'),
      memberNameColumn('last_name').as('creator_last_name'),
    ]);
}

export type ApiKeyWithCreator = NonNullable<Awaited<ReturnType<typeof findApiKey>>>;

export async function insertApiKey(db: Database, row: Insertable<ApiKeysTable>): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

/** Revokes a key of the portal now; false if it was already revoked. */
export async function revokeApiKey(db: Database, portalId: string, keyId: string, at: string) {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('portal_id', '=', portalId)
    .where('id', '=', keyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

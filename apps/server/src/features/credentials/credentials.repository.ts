import type { Database } from '../../db/database';
import { containsText } from '../../db/like';
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

/** One page of a portal's live credentials of a kind, with their holders. */
export async function listCredentialsPage(
  db: Database,
  portalId: string,
  kind: CredentialRow['kind'],
  query: {
    skip: number;
    limit: number;
    search?: string;
    sortBy?: 'secret' | 'name' | 'created_at';
    descending: boolean;
    userId?: string;
    /** Only credentials held by these people. */
    userIds?: string[];
    id?: string;
  },
) {
  let base = db
    .selectFrom('credentials as c')
    .leftJoin('users as u', 'u.id', 'c.user_id')
    .where('c.portal_id', '=', portalId)
    .where('c.kind', '=', kind)
    .where('c.revoked_at', 'is', null);
  if (query.userId) base = base.where('c.user_id', '=', query.userId);
  if (query.id) base = base.where('c.id', '=', query.id);
  if (query.userIds) {
    if (query.userIds.length === 0) return { rows: [], total: 0 };
    base = base.where('c.user_id', 'in', query.userIds);
  }
  if (query.search) {
    const term = query.search;
    base = base.where((eb) =>
      eb.or(
        ['c.secret', 'c.name', 'u.email', 'u.first_name', 'u.last_name'].map((column) =>
          containsText(column, term),
        ),
      ),
    );
  }
  const direction = query.descending ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    base
      .selectAll('c')
      .select([
        'u.email as holder_email',
        'u.first_name as holder_first_name',
        'u.last_name as holder_last_name',
      ])
      .orderBy(`c.${query.sortBy ?? 'created_at'}`, direction)
      .orderBy('c.id', direction)
      .limit(query.limit)
      .offset(query.skip)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function updateCredential(
  db: Database,
  portalId: string,
  id: string,
  patch: Partial<Pick<CredentialRow, 'user_id' | 'name' | 'secret'>> & {
    valid_from?: string | null;
    valid_until?: string | null;
  },
): Promise<void> {
  await db
    .updateTable('credentials')
    .set(patch)
    .where('portal_id', '=', portalId)
    .where('id', '=', id)
    .execute();
}

export async function revokeCredential(db: Database, portalId: string, id: string): Promise<void> {
  await db
    .updateTable('credentials')
    .set({ revoked_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('id', '=', id)
    .execute();
}

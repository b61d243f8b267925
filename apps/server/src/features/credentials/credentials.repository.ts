import type { Database } from '../../db/database';
import { memberNameColumn } from '../../base/tenancy/memberships.repository';
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

/** One credential of the portal, live or not. */
export function findCredential(
  db: Database,
  portalId: string,
  id: string,
): Promise<CredentialRow | undefined> {
  return db
    .selectFrom('credentials')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The live fingerprint a lock knows by this template id, if any. */
export function findLiveFingerprintAt(db: Database, portalId: string, deviceId: string, templateId: string) {
  return db
    .selectFrom('credentials as c')
    .innerJoin('credential_devices as cd', (join) =>
      join.onRef('cd.credential_id', '=', 'c.id').onRef('cd.portal_id', '=', 'c.portal_id'),
    )
    .select('c.id')
    .where('c.portal_id', '=', portalId)
    .where('c.kind', '=', 'fingerprint')
    .where('c.revoked_at', 'is', null)
    .where('c.secret', '=', templateId)
    .where('cd.device_id', '=', deviceId)
    .executeTakeFirst();
}

export async function insertCredential(db: Database, row: Insertable<CredentialsTable>): Promise<void> {
  await db.insertInto('credentials').values(row).execute();
}

/**
 * Revokes a person's live credentials in a portal, of one kind or all kinds. Keys are not revoked
 * but left without a holder: a key is a thing that is handed back and can be handed on.
 */
export async function revokeCredentialsOfUser(
  db: Database,
  portalId: string,
  userId: string,
  kind?: CredentialRow['kind'],
): Promise<void> {
  if (kind === undefined || kind === 'key') {
    await db
      .updateTable('credentials')
      .set({ user_id: null })
      .where('portal_id', '=', portalId)
      .where('user_id', '=', userId)
      .where('kind', '=', 'key')
      .where('revoked_at', 'is', null)
      .execute();
    if (kind === 'key') return;
  }
  let query = db
    .updateTable('credentials')
    .set({ revoked_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (kind) query = query.where('kind', '=', kind);
  await query.execute();
}

/** One page of a portal's live credentials of a kind held by people (or nobody), with their holders. */
export async function listCredentialsPage(
  db: Database,
  portalId: string,
  kind: CredentialRow['kind'],
  query: {
    skip: number;
    limit: number;
    search?: string;
    sortBy?: 'secret' | 'name' | 'variant' | 'created_at';
    descending: boolean;
    userId?: string;
    /** Only credentials held by these people. */
    userIds?: string[];
    /** Only credentials bound to this lock. */
    deviceId?: string;
    variant?: string;
    id?: string;
  },
) {
  let base = db
    .selectFrom('credentials as c')
    .leftJoin('users as u', 'u.id', 'c.user_id')
    .leftJoin('memberships as m', (join) =>
      join.onRef('m.user_id', '=', 'c.user_id').onRef('m.portal_id', '=', 'c.portal_id'),
    )
    .where('c.portal_id', '=', portalId)
    .where('c.kind', '=', kind)
    .where('c.holder_type', '=', 'person')
    .where('c.revoked_at', 'is', null);
  if (query.userId) base = base.where('c.user_id', '=', query.userId);
  if (query.id) base = base.where('c.id', '=', query.id);
  if (query.variant) base = base.where('c.variant', '=', query.variant as never);
  if (query.userIds) {
    if (query.userIds.length === 0) return { rows: [], total: 0 };
    base = base.where('c.user_id', 'in', query.userIds);
  }
  if (query.deviceId) base = base.where('c.id', 'in', credentialIdsBoundTo(db, portalId, query.deviceId));
  if (query.search) {
    const term = query.search;
    base = base.where((eb) =>
      eb.or(
        ['c.secret', 'c.name', 'u.email', memberNameColumn('first_name'), memberNameColumn('last_name')].map(
          (column) => containsText(column, term),
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
        memberNameColumn('first_name').as('holder_first_name'),
        memberNameColumn('last_name').as('holder_last_name'),
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
export type HeldCredentialRow = Awaited<ReturnType<typeof listCredentialsPage>>['rows'][number];

/** The live locks each credential is bound to, by credential id, sorted by name. */
export async function listBoundDevices(
  db: Database,
  portalId: string,
  credentialIds: string[],
): Promise<Map<string, { _id: string; name: string; timeZone: string }[]>> {
  const bound = new Map<string, { _id: string; name: string; timeZone: string }[]>();
  if (credentialIds.length === 0) return bound;
  const rows = await db
    .selectFrom('credential_devices as cd')
    .innerJoin('devices as d', (join) =>
      join.onRef('d.id', '=', 'cd.device_id').onRef('d.portal_id', '=', 'cd.portal_id'),
    )
    .select(['cd.credential_id', 'd.id', 'd.name', 'd.time_zone'])
    .where('cd.portal_id', '=', portalId)
    .where('cd.credential_id', 'in', credentialIds)
    .where('d.deleted_at', 'is', null)
    .orderBy('d.name')
    .execute();
  for (const row of rows) {
    const devices = bound.get(row.credential_id) ?? [];
    devices.push({ _id: row.id, name: row.name, timeZone: row.time_zone });
    bound.set(row.credential_id, devices);
  }
  return bound;
}

/** The ids of the credentials bound to a lock, as a subquery. */
export function credentialIdsBoundTo(db: Database, portalId: string, deviceId: string) {
  return db
    .selectFrom('credential_devices')
    .select('credential_id')
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId);
}

/** Binds a credential to a lock (idempotent). */
export async function bindCredentialToDevice(
  db: Database,
  portalId: string,
  credentialId: string,
  deviceId: string,
): Promise<void> {
  await db
    .insertInto('credential_devices')
    .values({ portal_id: portalId, credential_id: credentialId, device_id: deviceId, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['portal_id', 'credential_id', 'device_id']).doNothing())
    .execute();
}

export async function unbindCredentialFromDevice(
  db: Database,
  portalId: string,
  credentialId: string,
  deviceId: string,
): Promise<void> {
  await db
    .deleteFrom('credential_devices')
    .where('portal_id', '=', portalId)
    .where('credential_id', '=', credentialId)
    .where('device_id', '=', deviceId)
    .execute();
}

export async function updateCredential(
  db: Database,
  portalId: string,
  id: string,
  patch: Partial<Pick<CredentialRow, 'user_id' | 'name' | 'secret' | 'variant'>> & {
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

/** How many live credentials of each kind every person of a portal holds (people export). */
export async function countCredentialsPerUser(db: Database, portalId: string) {
  const rows = await liveCredentials(db, portalId)
    .select(['user_id', 'kind'])
    .select((eb) => eb.fn.countAll().as('count'))
    .where('holder_type', '=', 'person')
    .where('user_id', 'is not', null)
    .groupBy(['user_id', 'kind'])
    .execute();
  const counts = new Map<string, Partial<Record<CredentialRow['kind'], number>>>();
  for (const row of rows) {
    const forUser = counts.get(row.user_id!) ?? {};
    forUser[row.kind] = Number(row.count);
    counts.set(row.user_id!, forUser);
  }
  return counts;
}

import type { AuditAction, AuditEntityType } from '@latchkey/shared';
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { memberNameColumn } from '../tenancy/memberships.repository';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { ChangeContext } from '../http/access';

export interface AuditEntry {
  actorUserId: string | null;
  /** What was done, from THE list of change-log actions (packages/shared, audit-actions.ts). */
  action: AuditAction;
  /** What the entry is about, from the same file's AUDIT_ENTITY_TYPES. */
  entityType: AuditEntityType;
  entityId: string;
  /** The lock the change concerns when the entity is not the lock itself, for its History tab. */
  deviceId?: string | null;
  /**
   * Every other lock the change concerns when it concerns several (a lockout's locks, before and
   * after): each lock's History tab and the activity feed's lock and zone filters find it.
   */
  deviceIds?: readonly string[];
  /** The person the change concerns when the entity is not the membership or code itself. */
  userId?: string | null;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
  /** The API key that made the change, if one did (features/api-keys); actorUserId is then null. */
  apiKeyId?: string | null;
}

/**
 * The entries written in a transaction, for the transactions that asked (`trackEntriesWritten`):
 * a change to access names every lock it touched on its entries when it commits
 * (base/access-changes, changeAccess).
 */
const entriesWritten = new WeakMap<Database, string[]>();

/** Starts keeping the ids of the entries written through `trx`; answers the list it fills. */
export function trackEntriesWritten(trx: Database): readonly string[] {
  const ids: string[] = [];
  entriesWritten.set(trx, ids);
  return ids;
}

/** Entities whose id is the person's own id. */
const PERSON_ENTITIES = new Set(['member', 'access_code']);

/** Appends an entry to a portal's admin change log. Entries are never updated or deleted. */
export async function appendAuditEntry(db: Database, portalId: string, entry: AuditEntry): Promise<void> {
  const id = crypto.randomUUID();
  const deviceId = entry.deviceId ?? (entry.entityType === 'device' ? entry.entityId : null);
  const createdAt = nowIso();
  await db
    .insertInto('audit_log')
    .values({
      id,
      portal_id: portalId,
      actor_user_id: entry.actorUserId,
      action: entry.action,
      entity_type: entry.entityType,
      entity_id: entry.entityId,
      device_id: deviceId,
      user_id: entry.userId ?? (PERSON_ENTITIES.has(entry.entityType) ? entry.entityId : null),
      before_json: entry.before === undefined ? null : JSON.stringify(entry.before),
      after_json: entry.after === undefined ? null : JSON.stringify(entry.after),
      ip: entry.ip ?? null,
      api_key_id: entry.apiKeyId ?? null,
      created_at: createdAt,
    })
    .execute();
  entriesWritten.get(db)?.push(id);
  // Each lock the entry is about, for that lock's history (read by listAuditEntries' lock filters).
  const deviceIds = [...new Set([...(deviceId ? [deviceId] : []), ...(entry.deviceIds ?? [])])];
  if (deviceIds.length > 0) {
    await db
      .insertInto('audit_log_devices')
      .values(
        deviceIds.map((lockId) => ({
          audit_id: id,
          portal_id: portalId,
          device_id: lockId,
          created_at: createdAt,
        })),
      )
      .execute();
  }
}

/** A change as a request makes it: who and from where come from its context. */
export type AuditChange = Omit<AuditEntry, 'actorUserId' | 'ip'>;

/** Appends the change a request made to its portal's change log. */
export function recordChange(db: Database, context: ChangeContext, change: AuditChange): Promise<void> {
  return appendAuditEntry(db, context.portalId, {
    ...change,
    // A change made with an API key is the key's, not a person's (docs/decisions.md "API keys").
    actorUserId: context.apiKeyId ? null : context.actorUserId,
    apiKeyId: context.apiKeyId ?? null,
    ip: context.ip,
  });
}

/** One page of a portal's change log, with the people who made the changes. */
export async function listAuditEntries(
  db: Database,
  portalId: string,
  query: {
    skip: number;
    limit: number;
    descending: boolean;
    filter?: {
      entityType?: string;
      entityId?: string;
      deviceId?: string;
      /** Only changes about the locks of these zones (null: the locks in no zone; base/zones). */
      zoneIds?: string[] | null;
      userId?: string;
      action?: string;
      actorUserId?: string;
      /** The person the change concerns or who made it (the activity feed's person filter). */
      involvingUserId?: string;
      /** Only actions starting with this ("device.command."), or only those that do not. */
      actionPrefix?: { prefix: string; not?: boolean };
    };
    fromDate?: string;
    toDate?: string;
    /** Only entries strictly older than this instant (the activity feed's paging). */
    before?: string;
  },
) {
  let base = db
    .selectFrom('audit_log as a')
    .leftJoin('users as u', 'u.id', 'a.actor_user_id')
    .leftJoin('memberships as m', (join) =>
      join.onRef('m.user_id', '=', 'a.actor_user_id').onRef('m.portal_id', '=', 'a.portal_id'),
    )
    .leftJoin('api_keys as k', 'k.id', 'a.api_key_id')
    .where('a.portal_id', '=', portalId);
  const { filter = {} } = query;
  if (filter.entityType) base = base.where('a.entity_type', '=', filter.entityType);
  if (filter.entityId) base = base.where('a.entity_id', '=', filter.entityId);
  // A change is about a lock when audit_log_devices names it (every entry about a lock has a row
  // there, with its time). One lock's history is read from that table's (portal, lock, time) index
  // in the page's order; a zone's locks are a set, an entry about two of them is listed once.
  // The page is ordered and cut by the lock's index's own time and id when one lock is asked
  // (equal to the entry's): the join's columns are named by reference, as the builder's type
  // does not carry the optional join.
  const order = filter.deviceId
    ? { at: sql.ref('ad.created_at'), id: sql.ref('ad.audit_id') }
    : { at: sql.ref('a.created_at'), id: sql.ref('a.id') };
  if (filter.deviceId) {
    base = base
      .innerJoin('audit_log_devices as ad', 'ad.audit_id', 'a.id')
      .where('ad.portal_id', '=', portalId)
      .where('ad.device_id', '=', filter.deviceId) as unknown as typeof base;
  }
  if (filter.zoneIds !== undefined) {
    const zoneIds = filter.zoneIds;
    base = base.where('a.id', 'in', (eb) =>
      eb
        .selectFrom('audit_log_devices as zad')
        .select('zad.audit_id')
        .where('zad.portal_id', '=', portalId)
        .where('zad.device_id', 'in', (zeb) =>
          zeb
            .selectFrom('devices as zd')
            .select('zd.id')
            .where('zd.portal_id', '=', portalId)
            .where((w) => (zoneIds === null ? w('zd.zone_id', 'is', null) : w('zd.zone_id', 'in', zoneIds))),
        ),
    );
  }
  if (filter.userId) base = base.where('a.user_id', '=', filter.userId);
  if (filter.action) base = base.where('a.action', '=', filter.action);
  if (filter.actorUserId) base = base.where('a.actor_user_id', '=', filter.actorUserId);
  if (filter.involvingUserId) {
    const userId = filter.involvingUserId;
    base = base.where((eb) => eb.or([eb('a.user_id', '=', userId), eb('a.actor_user_id', '=', userId)]));
  }
  if (filter.actionPrefix) {
    // Action codes are dotted words: the prefix holds no LIKE wildcard to escape.
    const { prefix, not } = filter.actionPrefix;
    base = base.where('a.action', not ? 'not like' : 'like', `${prefix}%`);
  }
  if (query.fromDate) base = base.where(order.at, '>=', new Date(query.fromDate).toISOString());
  if (query.toDate) base = base.where(order.at, '<=', new Date(query.toDate).toISOString());
  if (query.before) base = base.where(order.at, '<', new Date(query.before).toISOString());
  const direction = query.descending ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    base
      .selectAll('a')
      .select([
        'u.email as actor_email',
        'k.name as api_key_name',
        'k.prefix as api_key_prefix',
        memberNameColumn('first_name').as('actor_first_name'),
        memberNameColumn('last_name').as('actor_last_name'),
      ])
      .orderBy(order.at, direction)
      .orderBy(order.id, direction)
      .limit(query.limit)
      .offset(query.skip)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export type AuditRow = Awaited<ReturnType<typeof listAuditEntries>>['rows'][number];

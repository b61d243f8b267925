import { personName } from '@latchkey/shared';
import crypto from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import type { ReportFilters, ReportFrequency, ReportKind } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { DB, ReportScheduleRow } from '../../db/schema';
import { memberNameColumn } from '../../base/tenancy/memberships.repository';

// The reports' reads: every query is by portal id, and a report's lock and people filters are
// subqueries on the portal's own group tables, so a filter never reaches another portal's rows.

/** The locks and people a report is narrowed to (ids already checked to be the portal's). */
export interface ReportScope {
  deviceIds: string[];
  groupIds: string[];
  userIds: string[];
  /** The zones of the zone filter (base/zones zoneFilter: null, the locks in no zone). */
  zoneIds?: string[] | null;
}

export const scopeOf = (filters: ReportFilters): ReportScope => ({
  deviceIds: filters.deviceIds,
  groupIds: filters.groupIds,
  userIds: filters.userIds,
});

/** Which of `ids` name a lock / group / person of the portal, with their names. */
export async function namesInPortal(db: Database, portalId: string, scope: ReportScope) {
  const [locks, groups, people] = await Promise.all([
    scope.deviceIds.length
      ? db
          .selectFrom('devices')
          .select(['id', 'name'])
          .where('portal_id', '=', portalId)
          .where('id', 'in', scope.deviceIds)
          .execute()
      : [],
    scope.groupIds.length
      ? db
          .selectFrom('groups')
          .select(['id', 'name'])
          .where('portal_id', '=', portalId)
          .where('id', 'in', scope.groupIds)
          .execute()
      : [],
    scope.userIds.length
      ? db
          .selectFrom('memberships as m')
          .innerJoin('users as u', 'u.id', 'm.user_id')
          .select(['u.id', 'u.email', memberNameColumn('first_name').as('first_name')])
          .select(memberNameColumn('last_name').as('last_name'))
          .where('m.portal_id', '=', portalId)
          .where('m.user_id', 'in', scope.userIds)
          .execute()
      : [],
  ]);
  return {
    locks: locks.map((row) => ({ _id: row.id, name: row.name })),
    groups: groups.map((row) => ({ _id: row.id, name: row.name })),
    people: people.map((row) => ({
      _id: row.id,
      name: personName(row.first_name, row.last_name, row.email),
    })),
  };
}

type Builder = ExpressionBuilder<DB & { e: DB['device_events'] } & { d: DB['devices'] }, 'e' | 'd'>;

/** A lock column matches the scope's locks (its own and its groups'); true when none are given. */
function lockCondition(eb: Builder, portalId: string, scope: ReportScope, column: 'e.device_id' | 'd.id') {
  const { zoneIds } = scope;
  const inZone =
    zoneIds === undefined
      ? null
      : eb(
          column,
          'in',
          eb
            .selectFrom('devices as zd')
            .select('zd.id')
            .where('zd.portal_id', '=', portalId)
            .where((w) => (zoneIds === null ? w('zd.zone_id', 'is', null) : w('zd.zone_id', 'in', zoneIds))),
        );
  if (scope.deviceIds.length === 0 && scope.groupIds.length === 0) return inZone ?? eb.lit(true);
  const named = eb.or([
    ...(scope.deviceIds.length ? [eb(column, 'in', scope.deviceIds)] : []),
    ...(scope.groupIds.length
      ? [
          eb(
            column,
            'in',
            eb
              .selectFrom('group_devices')
              .select('group_devices.device_id')
              .where('group_devices.portal_id', '=', portalId)
              .where('group_devices.group_id', 'in', scope.groupIds),
          ),
        ]
      : []),
  ]);
  return inZone ? eb.and([named, inZone]) : named;
}

/** A person column matches the scope's people (named and their groups'); true when none are given. */
function personCondition(eb: Builder, portalId: string, scope: ReportScope) {
  if (scope.userIds.length === 0 && scope.groupIds.length === 0) return eb.lit(true);
  return eb.or([
    ...(scope.userIds.length ? [eb('e.user_id', 'in', scope.userIds)] : []),
    ...(scope.groupIds.length
      ? [
          eb(
            'e.user_id',
            'in',
            eb
              .selectFrom('group_users')
              .select('group_users.user_id')
              .where('group_users.portal_id', '=', portalId)
              .where('group_users.group_id', 'in', scope.groupIds),
          ),
        ]
      : []),
  ]);
}

/** The entries report's events: openings and refusals at the portal's locks in [from, until). */
function entryEvents(db: Database, portalId: string, scope: ReportScope, from: string, until: string) {
  return db
    .selectFrom('device_events as e')
    .innerJoin('devices as d', (join) =>
      join.onRef('d.id', '=', 'e.device_id').onRef('d.portal_id', '=', 'e.portal_id'),
    )
    .where('e.portal_id', '=', portalId)
    .where('e.type', 'in', ['unlock', 'denied'])
    .where('e.occurred_at', '>=', from)
    .where('e.occurred_at', '<', until)
    .where((eb) => lockCondition(eb as Builder, portalId, scope, 'e.device_id'))
    .where((eb) => personCondition(eb as Builder, portalId, scope));
}

/** Where a keyset page of events starts: after this (occurred_at, id). */
export interface EventCursor {
  at: string;
  id: string;
}

/**
 * One page of the entries in time order, after `cursor` (keyset: the next page reads from the index
 * where this one ended, whatever the period's size), or at `skip` for the screen's pages.
 */
export async function listEntryRows(
  db: Database,
  portalId: string,
  scope: ReportScope,
  period: { from: string; until: string },
  page: { limit: number; after?: EventCursor; skip?: number },
) {
  let query = entryEvents(db, portalId, scope, period.from, period.until)
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .leftJoin('memberships as m', (join) =>
      join.onRef('m.user_id', '=', 'e.user_id').onRef('m.portal_id', '=', 'e.portal_id'),
    )
    .select([
      'e.id',
      'e.occurred_at',
      'e.type',
      'e.method',
      'e.reason',
      'e.device_id',
      'e.user_id',
      'd.name as device_name',
      'd.time_zone',
      'u.email as user_email',
      memberNameColumn('first_name').as('first_name'),
      memberNameColumn('last_name').as('last_name'),
    ]);
  const after = page.after;
  if (after) {
    // The `>=` bound lets the index start at the cursor; the `or` skips the rows already written.
    query = query
      .where('e.occurred_at', '>=', after.at)
      .where((eb) => eb.or([eb('e.occurred_at', '>', after.at), eb('e.id', '>', after.id)]));
  }
  const rows = await query
    .orderBy('e.occurred_at')
    .orderBy('e.id')
    .limit(page.limit)
    .offset(page.skip ?? 0)
    .execute();
  return rows.map((row) => ({ ...row, occurred_at: toIso(row.occurred_at) }));
}
export type EntryRow = Awaited<ReturnType<typeof listEntryRows>>[number];

/** The entries per lock and per person, and their total. */
export async function countEntries(
  db: Database,
  portalId: string,
  scope: ReportScope,
  period: { from: string; until: string },
) {
  const base = entryEvents(db, portalId, scope, period.from, period.until);
  const [perLock, perPerson] = await Promise.all([
    base
      .select(['e.device_id', 'd.name', 'e.type'])
      .select((eb) => eb.fn.countAll().as('n'))
      .groupBy(['e.device_id', 'd.name', 'e.type'])
      .execute(),
    base
      .select(['e.user_id', 'e.type'])
      .select((eb) => eb.fn.countAll().as('n'))
      .groupBy(['e.user_id', 'e.type'])
      .execute(),
  ]);
  return {
    perLock: perLock.map((row) => ({ ...row, n: Number(row.n) })),
    perPerson: perPerson.map((row) => ({ ...row, n: Number(row.n) })),
  };
}

/**
 * The entries' instants and kinds in time order, a keyset page at a time (the per-day chart:
 * days are read on a clock, which SQL on two dialects does not share).
 */
export async function listEntryInstants(
  db: Database,
  portalId: string,
  scope: ReportScope,
  period: { from: string; until: string },
  page: { limit: number; after?: EventCursor },
) {
  let query = entryEvents(db, portalId, scope, period.from, period.until).select([
    'e.id',
    'e.occurred_at',
    'e.type',
  ]);
  const after = page.after;
  if (after) {
    // The `>=` bound lets the index start at the cursor; the `or` skips the rows already written.
    query = query
      .where('e.occurred_at', '>=', after.at)
      .where((eb) => eb.or([eb('e.occurred_at', '>', after.at), eb('e.id', '>', after.id)]));
  }
  const rows = await query.orderBy('e.occurred_at').orderBy('e.id').limit(page.limit).execute();
  return rows.map((row) => ({ ...row, occurred_at: toIso(row.occurred_at) }));
}

/** The portal's locks in the scope (deleted ones left out), by name; a page after `afterId`. */
export async function listScopedLocks(db: Database, portalId: string, scope: ReportScope) {
  return db
    .selectFrom('devices as d')
    .selectAll('d')
    .where('d.portal_id', '=', portalId)
    .where('d.deleted_at', 'is', null)
    .where((eb) => lockCondition(eb as unknown as Builder, portalId, scope, 'd.id'))
    .orderBy('d.name')
    .orderBy('d.id')
    .execute();
}

/** The people of the scope (named and their groups'), or null for everyone. */
export async function scopedPeople(db: Database, portalId: string, scope: ReportScope) {
  if (scope.userIds.length === 0 && scope.groupIds.length === 0) return null;
  const viaGroups = scope.groupIds.length
    ? await db
        .selectFrom('group_users')
        .select('user_id')
        .where('portal_id', '=', portalId)
        .where('group_id', 'in', scope.groupIds)
        .execute()
    : [];
  return new Set([...scope.userIds, ...viaGroups.map((row) => row.user_id)]);
}

/** Per lock: the entries its last credentials/ack refused, and its sync versions. */
export async function syncStateOfLocks(db: Database, portalId: string, deviceIds: string[]) {
  if (deviceIds.length === 0) return { rejections: new Map<string, number>(), sync: new Map() };
  const [rejections, sync] = await Promise.all([
    db
      .selectFrom('device_credential_rejections')
      .select(['device_id'])
      .select((eb) => eb.fn.countAll().as('n'))
      .where('portal_id', '=', portalId)
      .where('device_id', 'in', deviceIds)
      .groupBy('device_id')
      .execute(),
    db
      .selectFrom('device_credential_sync')
      .select(['device_id', 'desired_version', 'confirmed_version'])
      .where('portal_id', '=', portalId)
      .where('device_id', 'in', deviceIds)
      .execute(),
  ]);
  return {
    rejections: new Map(rejections.map((row) => [row.device_id, Number(row.n)])),
    sync: new Map(sync.map((row) => [row.device_id, row])),
  };
}

/** Per lock: its battery-low and tamper reports in [from, until). */
export async function countLockWarnings(
  db: Database,
  portalId: string,
  deviceIds: string[],
  period: { from: string; until: string },
) {
  if (deviceIds.length === 0) return new Map<string, { battery: number; tamper: number }>();
  const rows = await db
    .selectFrom('device_events')
    .select(['device_id', 'type'])
    .select((eb) => eb.fn.countAll().as('n'))
    .where('portal_id', '=', portalId)
    .where('device_id', 'in', deviceIds)
    .where('type', 'in', ['battery_low', 'tamper'])
    .where('occurred_at', '>=', period.from)
    .where('occurred_at', '<', period.until)
    .groupBy(['device_id', 'type'])
    .execute();
  const counts = new Map<string, { battery: number; tamper: number }>();
  for (const row of rows) {
    const entry = counts.get(row.device_id) ?? { battery: 0, tamper: 0 };
    if (row.type === 'battery_low') entry.battery = Number(row.n);
    else entry.tamper = Number(row.n);
    counts.set(row.device_id, entry);
  }
  return counts;
}

/** A portal's credentials held by people that ended before `now` and were not revoked. */
export async function listExpiredPersonCredentials(db: Database, portalId: string, now: string) {
  const rows = await db
    .selectFrom('credentials')
    .select(['id', 'user_id', 'kind', 'name', 'valid_until'])
    .where('portal_id', '=', portalId)
    .where('user_id', 'is not', null)
    .where('revoked_at', 'is', null)
    .where('valid_until', 'is not', null)
    .where('valid_until', '<=', now)
    .orderBy('valid_until')
    .execute();
  return rows.map((row) => ({ ...row, valid_until: toIso(row.valid_until) }));
}

// Schedules.

export async function insertSchedule(
  db: Database,
  portalId: string,
  input: {
    kind: ReportKind;
    frequency: ReportFrequency;
    filters: ReportFilters;
    recipientIds: string[];
    /** Null when an API key schedules it (its stand-in is no account). */
    createdBy: string | null;
  },
): Promise<ReportScheduleRow> {
  const row = {
    id: crypto.randomUUID(),
    portal_id: portalId,
    kind: input.kind,
    frequency: input.frequency,
    filters_json: JSON.stringify(input.filters),
    recipients_json: JSON.stringify(input.recipientIds),
    created_by: input.createdBy,
    last_period: null,
    last_sent_at: null,
    created_at: nowIso(),
  };
  await db.insertInto('report_schedules').values(row).execute();
  return row;
}

export function listSchedules(db: Database, portalId: string) {
  return db
    .selectFrom('report_schedules')
    .selectAll()
    .where('portal_id', '=', portalId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findSchedule(db: Database, portalId: string, id: string) {
  return db
    .selectFrom('report_schedules')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteSchedule(db: Database, portalId: string, id: string) {
  await db.deleteFrom('report_schedules').where('portal_id', '=', portalId).where('id', '=', id).execute();
}

/** Every portal's schedules of a frequency not yet sent for `period` (the job's work list). */
export function listSchedulesDue(db: Database, frequency: ReportFrequency, period: string) {
  return db
    .selectFrom('report_schedules')
    .selectAll()
    .where('frequency', '=', frequency)
    .where((eb) => eb.or([eb('last_period', 'is', null), eb('last_period', '<>', period)]))
    .orderBy('id')
    .execute();
}

/**
 * The once-only guard: moves a schedule to `period` unless it is there already. Answers whether
 * this call moved it (and so must send it); a second server or a second run answers false.
 */
export async function claimSchedulePeriod(
  db: Database,
  id: string,
  period: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('report_schedules')
    .set({ last_period: period, last_sent_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_period', 'is', null), eb('last_period', '<>', period)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The portal's active admins among `userIds`, with their addresses. */
export function findAdmins(db: Database, portalId: string, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', memberNameColumn('first_name').as('first_name')])
    .select(memberNameColumn('last_name').as('last_name'))
    .where('m.portal_id', '=', portalId)
    .where('m.user_id', 'in', userIds)
    .where('m.role', '=', 'admin')
    .where('m.status', '=', 'active')
    .execute();
}

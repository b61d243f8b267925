import {
  ACTIVITY_EXPORT_LIMIT,
  auditActionText,
  formatDateTime,
  type ActivityFeedQuery,
  type ActivityFilters,
  type ActivityItem,
  type ActivityPage,
  type ActivityQuery,
  type DeviceEvent,
  type DeviceEventsQuery,
  type DeviceLogsQuery,
  personName,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toCount, toIso } from '../../db/mappers';
import { toAuditEntry } from '../audit/audit.presenter';
import { listAuditEntries, type AuditRow } from '../../base/audit/audit.repository';
import { csvDocument } from '../../base/http/csv';
import { AppError } from '../../base/http/errors';
import { findDevice } from '../devices/devices.repository';
import { zoneFilter } from '../../base/zones/zone-scope';
import { findMember, findMembers } from '../../base/tenancy/memberships.repository';
import {
  findCommandOutcomes,
  findLockNames,
  listDeviceEvents,
  type DeviceEventListRow,
} from './events.repository';

/**
 * What a history is about: the whole portal (the activity feed), one lock, one person, or one key
 * (the changes to it, and the lock events where it was presented).
 */
export type HistorySubject =
  { deviceId: string } | { userId: string } | { keyId: string } | Record<string, never>;

/** The subject as a filter on each source: locks and people name themselves in both. */
function filtersOf(subject: HistorySubject) {
  if ('keyId' in subject) {
    return {
      changes: { entityType: 'key', entityId: subject.keyId },
      events: { credentialId: subject.keyId },
    };
  }
  return { changes: subject, events: subject };
}

function toDeviceEvent(row: DeviceEventListRow): DeviceEvent {
  const userName = [row.user_first_name, row.user_last_name].filter(Boolean).join(' ');
  return {
    _id: row.id,
    eventId: row.event_id,
    device: { _id: row.device_id, name: row.device_name },
    type: row.type,
    method: row.method as DeviceEvent['method'],
    user: row.user_id && row.user_email ? { _id: row.user_id, name: userName || row.user_email } : null,
    credentialId: row.credential_id,
    reason: row.reason,
    occurredAt: toIso(row.occurred_at),
    receivedAt: toIso(row.received_at),
  };
}

/** GET portal/device/logs: the portal's lock events, newest first unless sorted otherwise. */
export async function getDeviceLogs(db: Database, portalId: string, query: DeviceLogsQuery) {
  const filter = query.filterBy && query.filterValue ? { [query.filterBy]: query.filterValue } : {};
  const { rows, total } = await listDeviceEvents(db, portalId, {
    skip: query.skip,
    limit: query.limit,
    descending: query.sortBy ? query.descending : true,
    ...filter,
  });
  return { items: rows.map(toDeviceEvent), total: toCount(total) };
}

/** What each source of the feed is narrowed to; null leaves that source out. */
interface SourceFilters {
  changes: Parameters<typeof listAuditEntries>[2]['filter'] | null;
  events: Omit<Parameters<typeof listDeviceEvents>[2], 'skip' | 'limit' | 'descending' | 'before'> | null;
}

/** The feed's filters (lock, zone, person, kind) as a filter on each source. */
function feedFilters(filters: ActivityFilters, zoneIds?: string[] | null): SourceFilters {
  const { deviceId, userId, kind } = filters;
  const changes = kind === undefined || kind === 'change' || kind === 'command';
  const events = kind === undefined || (kind !== 'change' && kind !== 'command');
  return {
    changes: changes
      ? {
          deviceId,
          ...(zoneIds !== undefined && { zoneIds }),
          involvingUserId: userId,
          ...(kind && { actionPrefix: { prefix: 'device.command.', not: kind === 'change' } }),
        }
      : null,
    events: events ? { deviceId, userId, type: kind, ...(zoneIds !== undefined && { zoneIds }) } : null,
  };
}

/**
 * Names what each change is about (the lock and the person, by the names they have now) and, for a
 * remote command, whether the lock did it: a change-log entry stores ids, and the feed reads as
 * "Remote unlock sent · Front door · by Ada · failed".
 */
async function describeChanges(db: Database, portalId: string, rows: AuditRow[]): Promise<ActivityItem[]> {
  const deviceIds = [...new Set(rows.map((row) => row.device_id).filter((id): id is string => !!id))];
  const userIds = [...new Set(rows.map((row) => row.user_id).filter((id): id is string => !!id))];
  const changes = rows.map(toAuditEntry);
  const commandIds = changes
    .filter((change) => change.action.startsWith('device.command.'))
    .map((change) => (change.after as { commandId?: unknown } | null)?.commandId)
    .filter((id): id is string => typeof id === 'string');
  const [locks, people, commands] = await Promise.all([
    findLockNames(db, portalId, deviceIds),
    userIds.length > 0 ? findMembers(db, portalId, userIds) : Promise.resolve([]),
    findCommandOutcomes(db, portalId, commandIds),
  ]);
  const peopleNames = new Map(people.map((p) => [p.id, personName(p.first_name, p.last_name, p.email)]));
  return changes.map((change, i) => {
    const row = rows[i]!;
    const commandId = (change.after as { commandId?: unknown } | null)?.commandId;
    const lockName = row.device_id ? locks.get(row.device_id) : undefined;
    const person = row.user_id ? peopleNames.get(row.user_id) : undefined;
    return {
      source: 'change' as const,
      at: change.createdAt,
      change,
      device: row.device_id && lockName !== undefined ? { _id: row.device_id, name: lockName } : null,
      person: row.user_id && person !== undefined ? { _id: row.user_id, name: person } : null,
      command: typeof commandId === 'string' ? (commands.get(commandId) ?? null) : null,
    };
  });
}

/** At most this many items of one instant join a page (many more would be a defect elsewhere). */
const SAME_INSTANT_LIMIT = 1000;

/**
 * Admin changes and lock events merged newest first. Each source gives its newest `limit` items
 * older than `before`; the merge keeps the newest `limit`, and the oldest kept instant is where the
 * next page starts (`before` is strict). A full page then also takes every other item of that
 * instant, so none falls between two pages: the entries one change writes share their instant (an
 * invitation's membership, grant and group join), so a page may run a few items over `limit`.
 */
async function mergedActivity(
  db: Database,
  portalId: string,
  page: { limit: number; before?: string },
  filters: SourceFilters,
): Promise<ActivityPage> {
  const none = { rows: [], total: 0 };
  const read = (window: { limit: number; before?: string; from?: string }) => {
    const common = { skip: 0, descending: true, limit: window.limit, before: window.before };
    return Promise.all([
      filters.changes
        ? listAuditEntries(db, portalId, { ...common, fromDate: window.from, filter: filters.changes })
        : none,
      filters.events
        ? listDeviceEvents(db, portalId, { ...common, from: window.from, ...filters.events })
        : none,
    ]);
  };
  const toItems = async (changeRows: AuditRow[], eventRows: DeviceEventListRow[]): Promise<ActivityItem[]> =>
    [
      ...(await describeChanges(db, portalId, changeRows)),
      ...eventRows.map((row) => {
        const event = toDeviceEvent(row);
        return { source: 'event' as const, at: event.occurredAt, event };
      }),
    ].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));

  const [changes, events] = await read({ limit: page.limit, before: page.before });
  let items = (await toItems(changes.rows, events.rows)).slice(0, page.limit);
  const total = toCount(changes.total) + toCount(events.total);
  if (items.length === page.limit && total > items.length) {
    // Every item of the page's oldest millisecond, from both sources, in place of those kept.
    const oldest = Date.parse(items[items.length - 1]!.at);
    const [sameChanges, sameEvents] = await read({
      limit: SAME_INSTANT_LIMIT,
      from: new Date(oldest).toISOString(),
      before: new Date(oldest + 1).toISOString(),
    });
    items = [
      ...items.filter((item) => Date.parse(item.at) !== oldest),
      ...(await toItems(sameChanges.rows, sameEvents.rows)),
    ];
  }
  const more = total > items.length;
  return { items, nextBefore: more && items.length > 0 ? items[items.length - 1]!.at : null };
}

/**
 * The history of one subject (the whole portal, a lock, a person, a key), paged by time: what the
 * lock, person and key history tabs show.
 */
export async function getActivity(
  db: Database,
  portalId: string,
  query: ActivityQuery,
  subject: HistorySubject = {},
): Promise<ActivityPage> {
  const filters = filtersOf(subject);
  return mergedActivity(db, portalId, query, {
    changes: filters.changes,
    events: filters.events,
  });
}

/** GET portal/activity: the portal's feed, narrowed to a lock, a person and/or a kind. */
export async function getActivityFeed(db: Database, portalId: string, query: ActivityFeedQuery) {
  // Another portal's zone is a 404 (base/zones).
  const zoneIds = await zoneFilter(db, portalId, query.zoneId);
  return mergedActivity(db, portalId, query, feedFilters(query, zoneIds));
}

/**
 * The export's columns. A person reads the time on the portal's clock, as the feed shows it, with
 * the zone named; the instant in UTC (ISO 8601) comes last, for sorting and for other programs.
 */
export const ACTIVITY_CSV_COLUMNS = [
  'time (portal clock)',
  'time zone',
  'source',
  'what',
  'lock',
  'person',
  'by',
  'result',
  'detail',
  'instant (UTC)',
];

/** One item of the feed as a CSV row (ACTIVITY_CSV_COLUMNS), its time on `timeZone`'s clock. */
function csvRow(item: ActivityItem, timeZone: string): unknown[] {
  const when = [formatDateTime(item.at, timeZone), timeZone];
  if (item.source === 'change') {
    const { change } = item;
    const by = change.actor ? change.actor.name || change.actor.email : 'the system';
    const result = item.command ? [item.command.status, item.command.error].filter(Boolean).join(': ') : '';
    // In words, as the feed shows it; the action's code, for a spreadsheet's filters, in detail.
    return [
      ...when,
      'change',
      auditActionText(change.action) ?? change.action,
      item.device?.name ?? '',
      item.person?.name ?? '',
      by,
      result,
      change.action,
      item.at,
    ];
  }
  const { event } = item;
  return [
    ...when,
    'lock event',
    event.type,
    event.device.name,
    event.user?.name ?? '',
    event.method ?? '',
    event.type === 'denied' ? ['denied', event.reason].filter(Boolean).join(': ') : '',
    event.eventId,
    item.at,
  ];
}

/**
 * GET portal/activity/export: the feed with the same filters as CSV, newest first, at most
 * ACTIVITY_EXPORT_LIMIT rows; every cell formula-safe (base/http/csv.ts).
 */
export async function exportActivityCsv(
  db: Database,
  portal: { id: string; time_zone: string },
  filters: ActivityFilters,
) {
  const portalId = portal.id;
  const zoneIds = await zoneFilter(db, portalId, filters.zoneId);
  const { items } = await mergedActivity(
    db,
    portalId,
    { limit: ACTIVITY_EXPORT_LIMIT },
    feedFilters(filters, zoneIds),
  );
  return csvDocument(
    ACTIVITY_CSV_COLUMNS,
    items.map((item) => csvRow(item, portal.time_zone)),
  );
}

/**
 * GET device/{id}/history and user/{id}/history: the activity feed of one lock or one person:
 * the lock events it took part in and the admin changes about it, newest first, paged by time.
 */
export async function getHistory(
  db: Database,
  portalId: string,
  subject: { deviceId: string } | { userId: string },
  query: ActivityQuery,
): Promise<ActivityPage> {
  if ('deviceId' in subject && !(await findDevice(db, portalId, subject.deviceId)))
    throw AppError.notFound('Lock');
  if ('userId' in subject && !(await findMember(db, portalId, subject.userId)))
    throw AppError.notFound('Person');
  return getActivity(db, portalId, query, subject);
}

/** GET device/{id}/events: one page of a lock's own events (what it reported). */
export async function getEventsOfDevice(
  db: Database,
  portalId: string,
  deviceId: string,
  query: DeviceEventsQuery,
) {
  if (!(await findDevice(db, portalId, deviceId))) throw AppError.notFound('Lock');
  const { rows, total } = await listDeviceEvents(db, portalId, {
    skip: query.skip,
    limit: query.limit,
    descending: query.sortBy ? query.descending : true,
    deviceId,
    type: query.filterBy === 'type' ? query.filterValue : undefined,
  });
  return { items: rows.map(toDeviceEvent), total: toCount(total) };
}

/** One stored event of a lock, by the id the lock gave it, as the logs show it. */
export async function getStoredDeviceEvent(
  db: Database,
  portalId: string,
  deviceId: string,
  eventId: string,
): Promise<DeviceEvent | undefined> {
  const { rows } = await listDeviceEvents(db, portalId, {
    skip: 0,
    limit: 1,
    descending: true,
    deviceId,
    eventId,
  });
  return rows[0] && toDeviceEvent(rows[0]);
}

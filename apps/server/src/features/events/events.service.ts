import type {
  ActivityItem,
  ActivityPage,
  ActivityQuery,
  DeviceEvent,
  DeviceEventsQuery,
  DeviceLogsQuery,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toCount, toIso } from '../../db/mappers';
import { toAuditEntry } from '../audit/audit.presenter';
import { listAuditEntries } from '../../base/audit/audit.repository';
import { AppError } from '../../base/http/errors';
import { findDevice } from '../devices/devices.repository';
import { findMember } from '../../base/tenancy/memberships.repository';
import { listDeviceEvents, type DeviceEventListRow } from './events.repository';

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

/**
 * The activity feed: admin changes and lock events merged newest first. Each source gives its
 * newest `limit` items older than `before`; the merge keeps the newest `limit`, and the oldest kept
 * instant is where the next page starts. Items sharing that exact instant across a page boundary
 * could be skipped, which millisecond timestamps make negligible for a human-read feed.
 */
export async function getActivity(
  db: Database,
  portalId: string,
  query: ActivityQuery,
  subject: HistorySubject = {},
): Promise<ActivityPage> {
  const page = { skip: 0, limit: query.limit, descending: true, before: query.before };
  const filters = filtersOf(subject);
  const [changes, events] = await Promise.all([
    listAuditEntries(db, portalId, { ...page, filter: filters.changes }),
    listDeviceEvents(db, portalId, { ...page, ...filters.events }),
  ]);
  const items: ActivityItem[] = [
    ...changes.rows.map((row) => {
      const change = toAuditEntry(row);
      return { source: 'change' as const, at: change.createdAt, change };
    }),
    ...events.rows.map((row) => {
      const event = toDeviceEvent(row);
      return { source: 'event' as const, at: event.occurredAt, event };
    }),
  ]
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, query.limit);
  const more = toCount(changes.total) + toCount(events.total) > items.length;
  return { items, nextBefore: more && items.length > 0 ? items[items.length - 1]!.at : null };
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

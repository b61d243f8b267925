import crypto from 'node:crypto';
import { memberNameColumn } from '../../base/tenancy/memberships.repository';
import type { AccessDenialReason, CommandError, DeviceEventType } from '@latchkey/shared';
import type { Insertable } from 'kysely';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { DeviceCommandRow, DeviceEventsTable } from '../../db/schema';
import { powerOfTwoChunks } from '../../db/statement-shapes';

export interface IncomingDeviceEvent {
  portalId: string;
  deviceId: string;
  /** The lock's own id for the event. */
  eventId: string;
  type: DeviceEventType;
  method: string | null;
  credentialId: string | null;
  userId: string | null;
  reason: AccessDenialReason | null;
  occurredAt: string;
}

/**
 * Stores a lock's event once: a lock resends what was not acknowledged, so a second copy (same lock,
 * same event id) is ignored. Answers whether this call stored it.
 */
export async function recordDeviceEvent(db: Database, event: IncomingDeviceEvent): Promise<boolean> {
  const result = await db
    .insertInto('device_events')
    .values({
      id: crypto.randomUUID(),
      portal_id: event.portalId,
      device_id: event.deviceId,
      event_id: event.eventId,
      type: event.type,
      method: event.method,
      credential_id: event.credentialId,
      user_id: event.userId,
      reason: event.reason,
      occurred_at: new Date(event.occurredAt).toISOString(),
      received_at: nowIso(),
    })
    .onConflict((oc) => oc.columns(['device_id', 'event_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Stores many lock events in as few statements as the batch needs (multi-row inserts), each once
 * per (lock, event id) as recordDeviceEvent does. Answers the `deviceId eventId` keys it stored;
 * the others were stored before. Run it inside the transaction that makes the batch durable.
 */
export async function insertDeviceEvents(
  db: Database,
  rows: Insertable<DeviceEventsTable>[],
): Promise<Set<string>> {
  const stored = new Set<string>();
  for (const chunk of powerOfTwoChunks(rows)) {
    const inserted = await db
      .insertInto('device_events')
      .values(chunk)
      .onConflict((oc) => oc.columns(['device_id', 'event_id']).doNothing())
      .returning(['device_id', 'event_id'])
      .execute();
    for (const row of inserted) stored.add(`${row.device_id} ${row.event_id}`);
  }
  return stored;
}

/** One page of a portal's lock events with lock and person names. */
export async function listDeviceEvents(
  db: Database,
  portalId: string,
  query: {
    skip: number;
    limit: number;
    descending: boolean;
    deviceId?: string;
    /** Only the locks of these zones (null: the locks in no zone; base/zones zoneFilter). */
    zoneIds?: string[] | null;
    userId?: string;
    /** The credential presented (a key's history). */
    credentialId?: string;
    type?: string;
    /** The lock's own id for the event (with deviceId: exactly one event). */
    eventId?: string;
    /** Only events strictly older than this instant (the activity feed's paging). */
    before?: string;
    /** Only events at or after this instant (with `before`: one instant of the feed's paging). */
    from?: string;
  },
) {
  let base = db
    .selectFrom('device_events as e')
    .innerJoin('devices as d', (join) =>
      join.onRef('d.id', '=', 'e.device_id').onRef('d.portal_id', '=', 'e.portal_id'),
    )
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .leftJoin('memberships as m', (join) =>
      join.onRef('m.user_id', '=', 'e.user_id').onRef('m.portal_id', '=', 'e.portal_id'),
    )
    .where('e.portal_id', '=', portalId);
  if (query.deviceId) base = base.where('e.device_id', '=', query.deviceId);
  if (query.zoneIds === null) base = base.where('d.zone_id', 'is', null);
  else if (query.zoneIds) base = base.where('d.zone_id', 'in', query.zoneIds);
  if (query.userId) base = base.where('e.user_id', '=', query.userId);
  if (query.credentialId) base = base.where('e.credential_id', '=', query.credentialId);
  if (query.type) base = base.where('e.type', '=', query.type as DeviceEventType);
  if (query.eventId) base = base.where('e.event_id', '=', query.eventId);
  if (query.before) base = base.where('e.occurred_at', '<', new Date(query.before).toISOString());
  if (query.from) base = base.where('e.occurred_at', '>=', new Date(query.from).toISOString());
  const direction = query.descending ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    base
      .selectAll('e')
      .select([
        'd.name as device_name',
        'u.email as user_email',
        memberNameColumn('first_name').as('user_first_name'),
        memberNameColumn('last_name').as('user_last_name'),
      ])
      .orderBy('e.occurred_at', direction)
      .orderBy('e.id', direction)
      .limit(query.limit)
      .offset(query.skip)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}
export type DeviceEventListRow = Awaited<ReturnType<typeof listDeviceEvents>>['rows'][number];

/** The names of a portal's locks by id, deleted ones included (their history still names them). */
export async function findLockNames(
  db: Database,
  portalId: string,
  deviceIds: readonly string[],
): Promise<Map<string, string>> {
  if (deviceIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('devices')
    .select(['id', 'name'])
    .where('portal_id', '=', portalId)
    .where('id', 'in', deviceIds)
    .execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/**
 * What became of a portal's remote commands, by command id: the lock's answer, or 'expired' for
 * one still pending past its expiry (as GET device/{id}/command/{commandId} says).
 */
export async function findCommandOutcomes(
  db: Database,
  portalId: string,
  commandIds: readonly string[],
): Promise<Map<string, { status: DeviceCommandRow['status']; error: CommandError | null }>> {
  if (commandIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('device_commands')
    .select(['id', 'status', 'error', 'expires_at'])
    .where('portal_id', '=', portalId)
    .where('id', 'in', commandIds)
    .execute();
  const now = Date.now();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        status:
          row.status === 'pending' && new Date(row.expires_at).getTime() <= now ? 'expired' : row.status,
        error: row.error as CommandError | null,
      },
    ]),
  );
}

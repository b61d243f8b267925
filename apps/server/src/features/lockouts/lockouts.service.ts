import crypto from 'node:crypto';
import type { LockoutInput, LockoutRecord, LockoutsQuery } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toCount, toIso } from '../../db/mappers';
import type { LockoutRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { locksOfZone } from '../../base/zones/zone-scope';
import { findDevices } from '../devices/devices.repository';
import {
  deleteLockout,
  findLockout,
  listLockoutDevices,
  listLockouts,
  saveLockout,
  type LockoutDevice,
} from './lockouts.repository';

function toRecord(row: LockoutRow, devices: LockoutDevice[], now = new Date()): LockoutRecord {
  const from = toIso(row.starts_at);
  const until = toIso(row.ends_at);
  return {
    _id: row.id,
    name: row.name,
    from,
    until,
    exemptAdmins: Number(row.exempt_admins) === 1,
    devices: devices.map((d) => ({ _id: d.id, name: d.name, timeZone: d.timeZone })),
    active: new Date(from) <= now && (until === null || new Date(until) > now),
    createdAt: toIso(row.created_at),
    zoneId: row.zone_id ?? null,
  };
}

async function requireLockout(db: Database, portalId: string, lockoutId: string) {
  const row = await findLockout(db, portalId, lockoutId);
  if (!row) throw AppError.notFound('Lockout');
  return row;
}

async function recordOf(db: Database, portalId: string, row: LockoutRow) {
  const devices = await listLockoutDevices(db, portalId, [row.id]);
  return toRecord(row, devices.get(row.id) ?? []);
}

export async function getLockoutsPage(db: Database, portalId: string, query: LockoutsQuery) {
  const state = query.filterBy === 'state' ? query.filterValue : undefined;
  if (state !== undefined && !['active', 'upcoming', 'past'].includes(state)) {
    const message = 'must be one of active, upcoming, past when filtering by state';
    throw AppError.badRequest(`filterValue ${message}`, [{ path: 'querystring.filterValue', message }]);
  }
  const { rows, total } = await listLockouts(db, portalId, {
    ...query,
    state: state as 'active' | 'upcoming' | 'past' | undefined,
    now: nowIso(),
  });
  const devices = await listLockoutDevices(
    db,
    portalId,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => toRecord(r, devices.get(r.id) ?? [])), total: toCount(total) };
}

export async function getLockout(db: Database, portalId: string, lockoutId: string) {
  return recordOf(db, portalId, await requireLockout(db, portalId, lockoutId));
}

/**
 * Creates (no id) or replaces a lockout; every lock must be one of the portal's. A lockout bound to
 * a zone (`zoneId` at creation, by features/zones) covers the zone's locks, whatever deviceIds says.
 */
export async function putLockout(
  db: Database,
  context: ChangeContext,
  lockoutId: string | null,
  input: Required<LockoutInput>,
  options: { zoneId?: string } = {},
): Promise<LockoutRecord> {
  return changeAccess(db, async (trx, touch) => {
    const existing = lockoutId ? await requireLockout(trx, context.portalId, lockoutId) : null;
    const before = existing ? await recordOf(trx, context.portalId, existing) : null;
    // The locks it covered and those it covers now.
    if (lockoutId) await touch(context.portalId, { lockout: lockoutId });
    const zoneId = existing ? existing.zone_id : (options.zoneId ?? null);
    const deviceIds = zoneId
      ? await locksOfZone(trx, context.portalId, zoneId)
      : [...new Set(input.deviceIds)];
    const devices = await findDevices(trx, context.portalId, deviceIds);
    if (devices.length !== deviceIds.length) {
      const message = 'names a lock that is not in this portal';
      throw AppError.badRequest(`deviceIds ${message}`, [{ path: 'body.deviceIds', message }]);
    }
    const now = nowIso();
    const id = lockoutId ?? crypto.randomUUID();
    await saveLockout(
      trx,
      {
        id,
        portal_id: context.portalId,
        name: input.name,
        starts_at: new Date(input.from).toISOString(),
        ends_at: input.until === null ? null : new Date(input.until).toISOString(),
        exempt_admins: input.exemptAdmins ? 1 : 0,
        created_at: now,
        updated_at: now,
        zone_id: zoneId,
      },
      deviceIds,
      lockoutId === null,
    );
    await touch(context.portalId, { lockout: id });
    const after = await recordOf(trx, context.portalId, (await findLockout(trx, context.portalId, id))!);
    await recordChange(trx, context, {
      action: before ? 'lockout.update' : 'lockout.create',
      entityType: 'lockout',
      entityId: id,
      // The locks it covered and covers: each one's history shows the change.
      deviceIds: [...(before?.devices ?? []), ...after.devices].map((d) => d._id),
      before: before ?? undefined,
      after,
    });
    return after;
  });
}

export async function removeLockout(db: Database, context: ChangeContext, lockoutId: string) {
  await changeAccess(db, async (trx, touch) => {
    const before = await recordOf(
      trx,
      context.portalId,
      await requireLockout(trx, context.portalId, lockoutId),
    );
    await touch(context.portalId, { lockout: lockoutId });
    await deleteLockout(trx, context.portalId, lockoutId);
    await recordChange(trx, context, {
      action: 'lockout.delete',
      entityType: 'lockout',
      entityId: lockoutId,
      deviceIds: before.devices.map((d) => d._id),
      before,
    });
  });
}

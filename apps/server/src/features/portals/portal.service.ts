import {
  encodeListCursor,
  MEMBERSHIP_STATUSES,
  PORTAL_ROLES,
  type OwnPortalCreate,
  type PortalContext,
  type PortalDashboard,
  type PortalData,
  type PortalUsersQuery,
} from '@latchkey/shared';
import crypto from 'node:crypto';
import type { Database } from '../../db/database';
import { nowIso, toCount, toIso } from '../../db/mappers';
import type { DeviceRow } from '../../db/schema';
import type { ActingPortal, RequestAuth } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { appendAuditEntry } from '../../base/audit/audit.repository';
import { countDevices, listLowBatteryDevices, listOfflineDevices } from '../devices/devices.repository';
import { countGroups } from '../groups/groups.repository';
import { actingPortalFor } from '../../base/tenancy/acting-portal';
import {
  countMembers,
  listPortalMembers,
  type MemberFilters,
} from '../../base/tenancy/memberships.repository';
import { toPortal, toPortalMember } from '../../base/tenancy/portal.presenter';
import { findUserById } from '../../base/identity/users.repository';
import {
  findPortalById,
  findPortalOwnedBy,
  insertOwnedPortal,
  updatePortal,
} from '../../base/tenancy/portals.repository';

const toDashboardDevice = (d: DeviceRow) => ({
  _id: d.id,
  name: d.name,
  battery: d.battery,
  lastSeenAt: toIso(d.last_seen_at),
});

/** The dashboard: the portal, its people and locks, and the locks that need attention. */
export async function getPortalDashboard(db: Database, acting: ActingPortal): Promise<PortalDashboard> {
  const portalId = acting.portal.id;
  const [groups, devices, groupCount, lowBattery, offline] = await Promise.all([
    countMembers(db, portalId),
    countDevices(db, portalId),
    countGroups(db, portalId),
    listLowBatteryDevices(db, portalId),
    listOfflineDevices(db, portalId, 10),
  ]);
  const sum = (match: (g: (typeof groups)[number]) => boolean) =>
    groups.filter(match).reduce((total, g) => total + toCount(g.count), 0);
  return {
    portal: toPortal(acting.portal),
    counts: {
      members: sum((g) => g.status === 'active'),
      admins: sum((g) => g.status === 'active' && g.role === 'admin'),
      users: sum((g) => g.status === 'active' && g.role === 'user'),
      invited: sum((g) => g.status === 'invited'),
      suspended: sum((g) => g.status === 'suspended'),
      devices: toCount(devices.total),
      groups: groupCount,
      offline: toCount(devices.offline),
      lowBattery: toCount(devices.low_battery),
    },
    lowBattery: lowBattery.slice(0, 10).map(toDashboardDevice),
    offline: offline.map(toDashboardDevice),
  };
}

/** An admin changes the portal's name or time zone; the change is audited. */
/**
 * POST user/{id}/portal: a person who owns no portal (they joined others by invitation) starts
 * their own and becomes its owner and admin. Platform staff may do it for anyone.
 */
export async function createOwnPortal(
  db: Database,
  auth: RequestAuth,
  userId: string,
  input: OwnPortalCreate,
  ip: string,
) {
  if (userId !== auth.user.id && !auth.isSuperAdmin) {
    throw AppError.forbidden('You may only start a portal of your own');
  }
  if (!(await findUserById(db, userId))) throw AppError.notFound('Person');
  const portalId = crypto.randomUUID();
  await db.transaction().execute(async (trx) => {
    // Inside the transaction, so two requests at once cannot both pass the check.
    if (await findPortalOwnedBy(trx, userId))
      throw AppError.conflict('They already have a portal of their own');
    await insertOwnedPortal(trx, {
      portalId,
      userId,
      name: input.name,
      timeZone: input.timeZone,
      now: nowIso(),
    });
    await appendAuditEntry(trx, portalId, {
      actorUserId: auth.user.id,
      action: 'portal.create',
      entityType: 'portal',
      entityId: portalId,
      after: { name: input.name, timeZone: input.timeZone },
      ip,
    });
  });
  return toPortal((await findPortalById(db, portalId))!);
}

export async function updatePortalData(
  db: Database,
  auth: RequestAuth,
  acting: ActingPortal,
  data: PortalData,
  ip: string,
) {
  return db.transaction().execute(async (trx) => {
    const before = await findPortalById(trx, acting.portal.id);
    if (!before) throw AppError.notFound('Portal');
    await updatePortal(trx, before.id, data);
    const after = (await findPortalById(trx, before.id))!;
    await appendAuditEntry(trx, before.id, {
      actorUserId: auth.user.id,
      action: 'portal.update',
      entityType: 'portal',
      entityId: before.id,
      before: { name: before.name, timeZone: before.time_zone },
      after: { name: after.name, timeZone: after.time_zone },
      ip,
    });
    return toPortal(after);
  });
}

function memberFilters(query: PortalUsersQuery): MemberFilters {
  if (!query.filterBy || query.filterValue === undefined) return {};
  const allowed: readonly string[] = query.filterBy === 'role' ? PORTAL_ROLES : MEMBERSHIP_STATUSES;
  if (!allowed.includes(query.filterValue)) {
    const message = `must be one of ${allowed.join(', ')} when filtering by ${query.filterBy}`;
    throw AppError.badRequest(`filterValue ${message}`, [{ path: 'querystring.filterValue', message }]);
  }
  return { [query.filterBy]: query.filterValue };
}

/** One page of the portal's members. */
export async function listPortalUsers(db: Database, portalId: string, query: PortalUsersQuery) {
  const { rows, total, next } = await listPortalMembers(db, portalId, query, memberFilters(query));
  return {
    items: rows.map(toPortalMember),
    total: toCount(total),
    ...(next && { next: encodeListCursor(next) }),
  };
}

/**
 * The signed-in person's place in a portal. With `mustAct`, only where they may act now
 * (403 otherwise, used when switching portals); without, any membership including an
 * invitation (404 if none, so portal ids cannot be probed).
 */
export async function getPortalContext(
  db: Database,
  auth: RequestAuth,
  portalId: string,
  mustAct: boolean,
): Promise<PortalContext> {
  const acting = await actingPortalFor(db, auth.user, auth.memberships, portalId);
  if (acting) {
    return {
      portal: toPortal(acting.portal),
      role: acting.role,
      status: 'active',
      viaPlatformRole: acting.viaPlatformRole,
    };
  }
  const membership = auth.memberships.find((m) => m.portal.id === portalId);
  if (mustAct)
    throw AppError.forbidden(
      membership ? `Your membership is ${membership.status}` : 'You are not a member of that portal',
    );
  if (!membership) throw AppError.notFound('Portal');
  return {
    portal: toPortal(membership.portal),
    role: membership.role,
    status: membership.status,
    viaPlatformRole: false,
  };
}

/** A portal's name, for people who belong to it (or platform staff). */
export async function getPortalName(db: Database, auth: RequestAuth, portalId: string) {
  const context = await getPortalContext(db, auth, portalId, false);
  return { _id: context.portal._id, name: context.portal.name };
}

import type { OwnPortalCreate, PortalActing, PortalContext, PortalData } from '@latchkey/shared';
import crypto from 'node:crypto';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { ActingPortal, RequestAuth } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { appendAuditEntry } from '../../base/audit/audit.repository';
import { actingPortalFor } from '../../base/tenancy/acting-portal';
import { findCurrentLink } from '../../base/tenancy/reseller-links';
import { toPortal } from '../../base/tenancy/portal.presenter';
import { findUserById } from '../../base/identity/users.repository';
import {
  findPortalById,
  findPortalOwnedBy,
  insertOwnedPortal,
  updatePortal,
} from '../../base/tenancy/portals.repository';

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

/**
 * GET portal/acting: why the person acts in the request's portal, as the server decided it
 * (acting-portal.ts): their own active membership first, else as platform staff, else as the
 * portal's reseller. The app frame's banner says the latter two, with the way back.
 */
export async function describeActing(
  db: Database,
  auth: RequestAuth,
  acting: ActingPortal,
): Promise<PortalActing> {
  const portal = acting.portal;
  const member = auth.memberships.some((m) => m.portal.id === portal.id && m.status === 'active');
  const via = member
    ? 'member'
    : acting.viaPlatformRole
      ? 'platform'
      : acting.viaResellerId
        ? 'reseller'
        : 'member';
  const owner = await findUserById(db, portal.owner_user_id);
  const link = via === 'reseller' ? await findCurrentLink(db, portal.id) : undefined;
  return {
    via,
    portal: { _id: portal.id, name: portal.name },
    ownerEmail: owner?.email ?? '',
    reseller: link ? { _id: link.reseller_id, name: link.reseller_name } : null,
  };
}

import type { Database } from '../../db/database';
import type { UserRow } from '../../db/schema';
import type { ActingPortal } from '../../http/request-auth';
import { AppError } from '../../http/errors';
import { listMembershipsOfUser, type MembershipWithPortal } from './memberships.repository';
import { resellerMayAct } from '../resellers/resellers.repository';
import { findPortalById } from './portals.repository';

/**
 * Where a person may act: an active membership, any portal for platform staff, or a customer's
 * portal for its reseller where the customer allows it.
 */
export async function actingPortalFor(
  db: Database,
  user: UserRow,
  memberships: MembershipWithPortal[],
  portalId: string,
): Promise<ActingPortal | null> {
  const membership = memberships.find((m) => m.portal.id === portalId && m.status === 'active');
  if (membership) return { portal: membership.portal, role: membership.role, viaPlatformRole: false };
  if (user.platform_role === 'superAdmin') {
    const portal = await findPortalById(db, portalId);
    if (portal) return { portal, role: 'admin', viaPlatformRole: true };
  }
  // A reseller acts as an admin in a customer's portal while the portal is linked to it and its
  // owner allows it (billing page); unlinking or refusing ends that from the next request on.
  if (await resellerMayAct(db, user.id, portalId)) {
    const portal = await findPortalById(db, portalId);
    if (portal) return { portal, role: 'admin', viaPlatformRole: false };
  }
  return null;
}

/**
 * The portal a request acts in: the one named by the portal-override header when the person
 * may act there (else 403), otherwise their own portal, otherwise their oldest active membership.
 */
export async function resolveActingPortal(
  db: Database,
  user: UserRow,
  overridePortalId: string | null,
  /** The person's memberships when the caller has them (the session cache); else they are read. */
  known?: MembershipWithPortal[],
): Promise<{ acting: ActingPortal | null; memberships: MembershipWithPortal[] }> {
  const memberships = known ?? (await listMembershipsOfUser(db, user.id));
  if (overridePortalId) {
    const acting = await actingPortalFor(db, user, memberships, overridePortalId);
    if (!acting) throw new AppError('portal_override_denied', 'You may not act in that portal', 403);
    return { acting, memberships };
  }
  const first = memberships.find((m) => m.status === 'active');
  const acting = first ? { portal: first.portal, role: first.role, viaPlatformRole: false } : null;
  return { acting, memberships };
}

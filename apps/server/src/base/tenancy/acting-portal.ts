import type { Database } from '../../db/database';
import type { UserRow } from '../../db/schema';
import type { ActingPortal } from '../http/request-auth';
import { AppError } from '../http/errors';
import { listMembershipsOfUser, type MembershipWithPortal } from './memberships.repository';
import { resellerMayAct } from './reseller-links';
import { findPortalById } from './portals.repository';

/**
 * Acting through a membership. One a reseller added while acting (reseller-memberships.ts) still
 * acts for that reseller: whatever it adds in turn ends with the reseller's leave too.
 */
function throughMembership(membership: MembershipWithPortal): ActingPortal {
  return {
    portal: membership.portal,
    role: membership.role,
    viaPlatformRole: false,
    ...(membership.acting_reseller_id && { viaResellerId: membership.acting_reseller_id }),
  };
}

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
  if (membership) return throughMembership(membership);
  if (user.platform_role === 'superAdmin') {
    const portal = await findPortalById(db, portalId);
    if (portal) return { portal, role: 'admin', viaPlatformRole: true };
  }
  // A reseller acts as an admin in a customer's portal while the portal is linked to it and its
  // owner allows it (billing page); unlinking or refusing ends that from the next request on.
  const resellerId = await resellerMayAct(db, user.id, portalId);
  if (resellerId) {
    const portal = await findPortalById(db, portalId);
    if (portal) return { portal, role: 'admin', viaPlatformRole: false, viaResellerId: resellerId };
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
  const acting = first ? throughMembership(first) : null;
  return { acting, memberships };
}

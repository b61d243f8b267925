import type { Database } from '../../db/database';
import type { ChangeContext } from '../../base/http/access';
import type { Touch } from '../../base/access-changes/touched-locks';
import { recordChange } from '../../base/audit/audit.repository';
import { revokeCredentialsOfUser } from '../credentials/credentials.repository';
import { deleteMembership } from '../../base/tenancy/memberships.repository';

/**
 * A reseller acts in its customer's portal only on the customer's leave (acting-portal.service.ts).
 * Whatever membership it adds there while acting (inviting itself or anyone else as an admin)
 * carries its id (`memberships.acting_reseller_id`, set by invitations.service.ts from the
 * request's ChangeContext) and ends when that leave ends: in the transaction that unlinks the
 * reseller or stops it acting, with the person's credentials there revoked and their locks
 * recomputed (the `changeAccess` around it). The membership trigger moves the auth epoch, so every
 * server's next request of theirs no longer sees the portal. Answers how many ended.
 */
export async function endResellerMadeMemberships(
  trx: Database,
  touch: Touch,
  context: ChangeContext,
  resellerId: string,
  why: 'unlinked' | 'acting stopped',
): Promise<number> {
  const rows = await trx
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('portals as p', 'p.id', 'm.portal_id')
    .select(['m.user_id', 'm.role', 'm.status', 'u.email', 'p.owner_user_id'])
    .where('m.portal_id', '=', context.portalId)
    .where('m.acting_reseller_id', '=', resellerId)
    .execute();
  let ended = 0;
  for (const row of rows) {
    // The portal's owner stays whatever happened (an owner's membership is never the reseller's).
    if (row.user_id === row.owner_user_id) continue;
    await touch(context.portalId, { person: row.user_id });
    await revokeCredentialsOfUser(trx, context.portalId, row.user_id);
    await deleteMembership(trx, context.portalId, row.user_id);
    await recordChange(trx, context, {
      action: 'member.remove',
      entityType: 'member',
      entityId: row.user_id,
      before: { email: row.email, role: row.role, status: row.status },
      after: { why: `Added by the reseller while it acted here; the reseller was ${why}` },
    });
    ended++;
  }
  return ended;
}

// The people who look after a listing (its users: told of its requests, shown on its page).
// Apart from the listing itself (listings.service.ts) because they are members of the portal
// added and removed on their own routes, and change nothing of the listing's access.
import type { ListingUser } from '@latchkey/shared';
import type { Database } from '../../db/database';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { findMember } from '../../base/tenancy/memberships.repository';
import { addListingUser, listListingUsers, removeListingUser } from './listings.repository';
import { personName } from './listings.presenter';
import { requireListing } from './listings.service';

export async function getListingUsers(
  db: Database,
  portalId: string,
  listingId: string,
): Promise<ListingUser[]> {
  await requireListing(db, portalId, listingId);
  return (await listListingUsers(db, portalId, listingId)).map((u) => ({
    _id: u.id,
    name: personName(u),
    email: u.email,
  }));
}

export async function putListingUser(
  db: Database,
  context: ChangeContext,
  listingId: string,
  userId: string,
) {
  await db.transaction().execute(async (trx) => {
    const listing = await requireListing(trx, context.portalId, listingId);
    const member = await findMember(trx, context.portalId, userId);
    if (!member) throw AppError.notFound('Person');
    await addListingUser(trx, context.portalId, listingId, userId);
    await recordChange(trx, context, {
      action: 'listing.user.add',
      entityType: 'listing',
      entityId: listingId,
      userId,
      after: { listing: listing.title, user: member.email },
    });
  });
  return getListingUsers(db, context.portalId, listingId);
}

export async function deleteListingUser(
  db: Database,
  context: ChangeContext,
  listingId: string,
  userId: string,
) {
  await db.transaction().execute(async (trx) => {
    const listing = await requireListing(trx, context.portalId, listingId);
    const member = await findMember(trx, context.portalId, userId);
    if (!member) throw AppError.notFound('Person');
    await removeListingUser(trx, context.portalId, listingId, userId);
    await recordChange(trx, context, {
      action: 'listing.user.remove',
      entityType: 'listing',
      entityId: listingId,
      userId,
      before: { listing: listing.title, user: member.email },
    });
  });
}

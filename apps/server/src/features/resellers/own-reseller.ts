import type { ResellerMine } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { findResellerOwnedBy } from './resellers.repository';

/** GET reseller/mine: the person's reseller account's id and name, or null (never a 404). */
export async function getOwnReseller(db: Database, userId: string): Promise<ResellerMine> {
  const reseller = await findResellerOwnedBy(db, userId);
  return { reseller: reseller ? { _id: reseller.id, name: reseller.name } : null };
}

// A listing's categories: named groups its listings are filed under. Apart from the listing
// itself (listings.service.ts) because a category is an aggregate of its own, changed on its own
// routes (listing/category…), and needs nothing of a listing's rules.
import crypto from 'node:crypto';
import type { ListingCategory } from '@latchkey/shared';
import { isUniqueViolation, type Database } from '../../db/database';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import {
  deleteCategory,
  findCategory,
  findCategoryByName,
  insertCategory,
  listCategories,
  renameCategory,
} from './listings.repository';

function presentCategory(row: { id: string; name: string; listings: number }): ListingCategory {
  return { _id: row.id, name: row.name, listings: row.listings };
}

export async function getCategories(db: Database, portalId: string): Promise<ListingCategory[]> {
  return (await listCategories(db, portalId)).map(presentCategory);
}

async function assertFreeCategoryName(db: Database, portalId: string, name: string, exceptId?: string) {
  const taken = await findCategoryByName(db, portalId, name);
  if (taken && taken.id !== exceptId) throw AppError.conflict(`A category named ${taken.name} exists`);
}

export async function createCategory(
  db: Database,
  context: ChangeContext,
  name: string,
): Promise<ListingCategory> {
  return db.transaction().execute(async (trx) => {
    await assertFreeCategoryName(trx, context.portalId, name);
    const id = crypto.randomUUID();
    try {
      await insertCategory(trx, { id, portal_id: context.portalId, name });
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.conflict(`A category named ${name} exists`);
      throw error;
    }
    await recordChange(trx, context, {
      action: 'listing.category.create',
      entityType: 'listing_category',
      entityId: id,
      after: { name },
    });
    return { _id: id, name, listings: 0 };
  });
}

export async function saveCategory(
  db: Database,
  context: ChangeContext,
  categoryId: string,
  name: string,
): Promise<ListingCategory> {
  return db.transaction().execute(async (trx) => {
    const category = await findCategory(trx, context.portalId, categoryId);
    if (!category) throw AppError.notFound('Category');
    await assertFreeCategoryName(trx, context.portalId, name, categoryId);
    await renameCategory(trx, context.portalId, categoryId, name);
    await recordChange(trx, context, {
      action: 'listing.category.update',
      entityType: 'listing_category',
      entityId: categoryId,
      before: { name: category.name },
      after: { name },
    });
    return presentCategory((await listCategories(trx, context.portalId)).find((c) => c.id === categoryId)!);
  });
}

export async function removeCategory(
  db: Database,
  context: ChangeContext,
  categoryId: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const category = await findCategory(trx, context.portalId, categoryId);
    if (!category) throw AppError.notFound('Category');
    await deleteCategory(trx, context.portalId, categoryId);
    await recordChange(trx, context, {
      action: 'listing.category.delete',
      entityType: 'listing_category',
      entityId: categoryId,
      before: { name: category.name },
    });
  });
}

// A listing's access list: the people (cleaners, hosts) who get access around each of its stays.
// Apart from the listing itself (listings.service.ts) because its entries are changed one by one
// on their own routes; each change reaches the listing's stays at once (ListingAccessChanged).
import crypto from 'node:crypto';
import {
  accessListEntryInputSchema,
  type AccessListEntry,
  type AccessListEntryInput,
} from '@latchkey/shared';
import type { z } from 'zod';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { emitDomainEvent } from '../../base/events/domain-events';
import './listing-events';
import { recordChange } from '../../base/audit/audit.repository';
import {
  deleteAccessListEntry,
  findAccessListEntry,
  insertAccessListEntry,
  listAccessList,
  updateAccessListEntry,
} from './listings.repository';
import { presentAccessListEntry } from './listings.presenter';
import { requireListing } from './listings.service';

type AccessListValues = z.output<typeof accessListEntryInputSchema>;

export async function getAccessList(
  db: Database,
  portalId: string,
  listingId: string,
): Promise<AccessListEntry[]> {
  await requireListing(db, portalId, listingId);
  return (await listAccessList(db, portalId, listingId)).map(presentAccessListEntry);
}

function accessListColumns(input: AccessListValues) {
  return {
    name: input.name,
    email: input.email || null,
    phone: input.phone || null,
    anchor: input.anchor,
    start_offset: input.startOffset,
    end_offset: input.endOffset,
  };
}

/** Adds someone to the access list; the listing's current and upcoming stays give them access at once. */
export async function createAccessListEntry(
  db: Database,
  context: ChangeContext,
  listingId: string,
  input: AccessListValues,
): Promise<AccessListEntry> {
  return changeAccess(db, async (trx, touch) => {
    const listing = await requireListing(trx, context.portalId, listingId);
    if ((await listAccessList(trx, context.portalId, listingId)).length >= 10) {
      throw AppError.conflict('A listing has at most 10 people on its access list');
    }
    const id = crypto.randomUUID();
    const now = nowIso();
    await insertAccessListEntry(trx, {
      id,
      portal_id: context.portalId,
      listing_id: listingId,
      ...accessListColumns(input),
      created_at: now,
      updated_at: now,
    });
    await emitDomainEvent(trx, 'ListingAccessChanged', { listing: listing, touch, now: new Date() });
    const entry = presentAccessListEntry((await findAccessListEntry(trx, context.portalId, listingId, id))!);
    await recordChange(trx, context, {
      action: 'listing.accessList.create',
      entityType: 'listing_access_list',
      entityId: id,
      after: { listing: listing.title, ...entry },
    });
    return entry;
  });
}

export async function saveAccessListEntry(
  db: Database,
  context: ChangeContext,
  listingId: string,
  entryId: string,
  input: AccessListValues,
): Promise<AccessListEntry> {
  return changeAccess(db, async (trx, touch) => {
    const listing = await requireListing(trx, context.portalId, listingId);
    const row = await findAccessListEntry(trx, context.portalId, listingId, entryId);
    if (!row) throw AppError.notFound('Access list entry');
    await updateAccessListEntry(trx, context.portalId, entryId, accessListColumns(input));
    await emitDomainEvent(trx, 'ListingAccessChanged', { listing: listing, touch, now: new Date() });
    const entry = presentAccessListEntry(
      (await findAccessListEntry(trx, context.portalId, listingId, entryId))!,
    );
    await recordChange(trx, context, {
      action: 'listing.accessList.update',
      entityType: 'listing_access_list',
      entityId: entryId,
      before: presentAccessListEntry(row),
      after: entry,
    });
    return entry;
  });
}

export async function removeAccessListEntry(
  db: Database,
  context: ChangeContext,
  listingId: string,
  entryId: string,
): Promise<void> {
  await changeAccess(db, async (trx, touch) => {
    const listing = await requireListing(trx, context.portalId, listingId);
    const row = await findAccessListEntry(trx, context.portalId, listingId, entryId);
    if (!row) throw AppError.notFound('Access list entry');
    await deleteAccessListEntry(trx, context.portalId, entryId);
    await emitDomainEvent(trx, 'ListingAccessChanged', { listing: listing, touch, now: new Date() });
    await recordChange(trx, context, {
      action: 'listing.accessList.delete',
      entityType: 'listing_access_list',
      entityId: entryId,
      before: presentAccessListEntry(row),
    });
  });
}

export type { AccessListEntryInput };

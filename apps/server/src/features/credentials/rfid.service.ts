import crypto from 'node:crypto';
import type { RfidCard, RfidInput, RfidsQuery } from '@latchkey/shared';
import { isUniqueViolation, type Database } from '../../db/database';
import { nowIso, toCount, toIso } from '../../db/mappers';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { listAccessPaths } from '../access/access.repository';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { recordChange } from '../../base/audit/audit.repository';
import { findDevice } from '../devices/devices.repository';
import { findMember } from '../../base/tenancy/memberships.repository';
import {
  findLiveCredentialBySecret,
  insertCredential,
  type HeldCredentialRow,
  listCredentialsPage,
  revokeCredential,
  updateCredential,
} from './credentials.repository';
import { holderOf } from './holder';

function toCard(row: HeldCredentialRow): RfidCard {
  return {
    _id: row.id,
    uid: row.secret,
    name: row.name,
    holder: holderOf(row),
    validFrom: toIso(row.valid_from),
    validUntil: toIso(row.valid_until),
    createdAt: toIso(row.created_at),
  };
}

const taken = () => AppError.conflict('This card is already registered in this portal');

async function cardById(db: Database, portalId: string, id: string): Promise<RfidCard> {
  const { rows } = await listCredentialsPage(db, portalId, 'rfid', {
    skip: 0,
    limit: 1,
    descending: false,
    id,
  });
  if (!rows[0]) throw AppError.notFound('Card');
  return toCard(rows[0]);
}

async function assertHolder(db: Database, portalId: string, userId: string | null) {
  if (userId && !(await findMember(db, portalId, userId))) throw AppError.notFound('Person');
}

export async function getCardsPage(db: Database, portalId: string, query: RfidsQuery) {
  const { rows, total } = await listCredentialsPage(db, portalId, 'rfid', {
    ...query,
    sortBy: ({ uid: 'secret', name: 'name', createdAt: 'created_at' } as const)[query.sortBy ?? 'createdAt'],
    userId: query.filterBy === 'userId' ? query.filterValue : undefined,
  });
  return { items: rows.map(toCard), total: toCount(total) };
}

export const getCard = cardById;

/** Registers a card, optionally handing it to a person. */
export async function registerCard(db: Database, context: ChangeContext, input: Required<RfidInput>) {
  try {
    return await changeAccess(db, async (trx, touch) => {
      await assertHolder(trx, context.portalId, input.userId);
      if (await findLiveCredentialBySecret(trx, context.portalId, 'rfid', input.uid)) throw taken();
      const id = crypto.randomUUID();
      await insertCredential(trx, {
        id,
        portal_id: context.portalId,
        user_id: input.userId,
        kind: 'rfid',
        secret: input.uid,
        name: input.name,
        valid_from: input.validFrom && new Date(input.validFrom).toISOString(),
        valid_until: input.validUntil && new Date(input.validUntil).toISOString(),
        created_at: nowIso(),
      });
      const card = await cardById(trx, context.portalId, id);
      if (input.userId) await touch(context.portalId, { person: input.userId });
      await recordChange(trx, context, {
        action: 'rfid.create',
        entityType: 'rfid',
        entityId: id,
        userId: card.holder?._id,
        after: card,
      });
      return card;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/** Changes a card's label, holder or validity (the UID of a card cannot change). */
export async function saveCard(db: Database, context: ChangeContext, id: string, input: Required<RfidInput>) {
  return changeAccess(db, async (trx, touch) => {
    const before = await cardById(trx, context.portalId, id);
    if (input.uid !== before.uid) {
      const message = 'cannot change; register the new card instead';
      throw AppError.badRequest(`uid ${message}`, [{ path: 'body.uid', message }]);
    }
    await assertHolder(trx, context.portalId, input.userId);
    await updateCredential(trx, context.portalId, id, {
      name: input.name,
      user_id: input.userId,
      valid_from: input.validFrom && new Date(input.validFrom).toISOString(),
      valid_until: input.validUntil && new Date(input.validUntil).toISOString(),
    });
    const after = await cardById(trx, context.portalId, id);
    // The card leaves its former holder's locks and reaches its new holder's.
    for (const holder of new Set([before.holder?._id, after.holder?._id])) {
      if (holder) await touch(context.portalId, { person: holder });
    }
    await recordChange(trx, context, {
      action: 'rfid.update',
      entityType: 'rfid',
      entityId: id,
      userId: after.holder?._id ?? before.holder?._id,
      before,
      after,
    });
    return after;
  });
}

/** Revokes a card: it opens nothing from now on, and its UID may be registered again. */
export async function removeCard(db: Database, context: ChangeContext, id: string) {
  await changeAccess(db, async (trx, touch) => {
    const before = await cardById(trx, context.portalId, id);
    await revokeCredential(trx, context.portalId, id);
    if (before.holder) await touch(context.portalId, { person: before.holder._id });
    await recordChange(trx, context, {
      action: 'rfid.delete',
      entityType: 'rfid',
      entityId: id,
      userId: before.holder?._id,
      before,
    });
  });
}

/** The cards a person holds. */
export async function getCardsOfUser(db: Database, portalId: string, userId: string) {
  if (!(await findMember(db, portalId, userId))) throw AppError.notFound('Person');
  const { rows } = await listCredentialsPage(db, portalId, 'rfid', {
    skip: 0,
    limit: 200,
    descending: false,
    userId,
  });
  return rows.map(toCard);
}

/** The cards that reach a lock: those held by people who can use it. */
export async function getCardsOfDevice(db: Database, portalId: string, deviceId: string) {
  if (!(await findDevice(db, portalId, deviceId))) throw AppError.notFound('Lock');
  const holders = [...new Set((await listAccessPaths(db, portalId, { deviceId })).map((p) => p.userId))];
  const { rows } = await listCredentialsPage(db, portalId, 'rfid', {
    skip: 0,
    limit: 10_000,
    descending: false,
    userIds: holders,
  });
  return rows.map(toCard);
}

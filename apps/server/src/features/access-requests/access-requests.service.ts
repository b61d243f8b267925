import crypto from 'node:crypto';
import type {
  AccessRequest,
  AccessRequestDecline,
  AccessRequestGrant,
  AccessRequestInput,
  AccessRequestListQuery,
  AccessRequestPage,
  RequestableLock,
} from '@latchkey/shared';
import { accessRequestInputSchema } from '@latchkey/shared';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import { getUserDevices, grantDirectAccess } from '../access/access.service';
import { findDevice } from '../devices/devices.repository';
import { presentAccessRequest } from './access-requests.presenter';
import {
  answerWaiting,
  findAccessRequest,
  findWaiting,
  insertAccessRequest,
  listAccessRequests,
  portalLocks,
  reopen,
  waitingLocksOf,
} from './access-requests.repository';

/**
 * Access requests (issue 21, the `accessRequest` collection; docs/decisions.md "Access requests"):
 * any member asks for a lock of their portal with a note; an admin grants it with a schedule, which
 * is direct access through the access service (audited there, and the lock's credential set is
 * recomputed), or declines it with a reason. One waiting request per person and lock.
 */

async function requireRequest(db: Database, portalId: string, id: string): Promise<AccessRequest> {
  const row = await findAccessRequest(db, portalId, id);
  if (!row) throw AppError.notFound('Access request');
  return presentAccessRequest(row);
}

/** A person asks for a lock (any member, for themselves). */
export async function askForAccess(
  db: Database,
  context: ChangeContext,
  input: AccessRequestInput,
): Promise<AccessRequest> {
  const { deviceId, note } = accessRequestInputSchema.parse(input);
  const id = crypto.randomUUID();
  await db.transaction().execute(async (trx) => {
    const device = await findDevice(trx, context.portalId, deviceId);
    if (!device) throw AppError.notFound('Lock');
    if (await findWaiting(trx, context.portalId, deviceId, context.actorUserId)) {
      throw AppError.conflict(`You have already asked for ${device.name}; an admin will answer`);
    }
    const at = nowIso();
    await insertAccessRequest(trx, {
      id,
      portal_id: context.portalId,
      device_id: deviceId,
      user_id: context.actorUserId,
      note,
      status: 'waiting',
      schedule_json: null,
      reason: '',
      answered_by: null,
      answered_at: null,
      created_at: at,
      updated_at: at,
    });
    await recordChange(trx, context, {
      action: 'access_request.create',
      entityType: 'access_request',
      entityId: id,
      deviceId,
      userId: context.actorUserId,
      after: { device: device.name, note },
    });
  });
  return requireRequest(db, context.portalId, id);
}

/** The portal's requests (admins), waiting ones first. */
export async function listForAdmin(
  db: Database,
  portalId: string,
  query: AccessRequestListQuery,
): Promise<AccessRequestPage> {
  const { rows, total } = await listAccessRequests(db, portalId, {
    skip: query.skip,
    limit: query.limit,
    status: query.status,
  });
  return { items: rows.map(presentAccessRequest), total };
}

/** The caller's own requests and their answers. */
export async function listMine(
  db: Database,
  portalId: string,
  userId: string,
  query: AccessRequestListQuery,
): Promise<AccessRequestPage> {
  const { rows, total } = await listAccessRequests(db, portalId, {
    skip: query.skip,
    limit: query.limit,
    status: query.status,
    userId,
  });
  return { items: rows.map(presentAccessRequest), total };
}

/** A request: its person, or an admin of its portal. */
export async function readRequest(
  db: Database,
  caller: { portalId: string; userId: string; isAdmin: boolean },
  id: string,
): Promise<AccessRequest> {
  const request = await requireRequest(db, caller.portalId, id);
  // Another person's request is as absent as another portal's.
  if (!caller.isAdmin && request.requester._id !== caller.userId) throw AppError.notFound('Access request');
  return request;
}

/** The portal's locks, each saying whether the caller reaches it already or is waiting for it. */
export async function requestableLocks(
  db: Database,
  portalId: string,
  userId: string,
): Promise<RequestableLock[]> {
  const [locks, reachable, waiting] = await Promise.all([
    portalLocks(db, portalId),
    getUserDevices(db, portalId, userId),
    waitingLocksOf(db, portalId, userId),
  ]);
  const reached = new Set(reachable.map((d) => d._id));
  return locks.map((lock) => ({
    _id: lock.id,
    name: lock.name,
    hasAccess: reached.has(lock.id),
    waiting: waiting.has(lock.id),
  }));
}

const alreadyAnswered = (request: AccessRequest) =>
  AppError.conflict(
    `This request was already ${request.status === 'withdrawn' ? 'withdrawn' : request.status}`,
  );

/**
 * Grants a waiting request: the request is claimed first (one answer however many admins click),
 * then the person gets direct access with the schedule through the access service (its own audit
 * entry and the lock's new credential set); a failed grant puts the request back to waiting.
 */
export async function grantRequest(
  db: Database,
  context: ChangeContext,
  id: string,
  grant: AccessRequestGrant,
): Promise<AccessRequest> {
  const request = await requireRequest(db, context.portalId, id);
  const at = nowIso();
  const claimed = await db.transaction().execute(async (trx) => {
    const ok = await answerWaiting(trx, context.portalId, id, {
      status: 'granted',
      schedule: grant.schedule,
      by: context.actorUserId,
      at,
    });
    if (ok)
      await recordChange(trx, context, {
        action: 'access_request.grant',
        entityType: 'access_request',
        entityId: id,
        deviceId: request.device._id,
        userId: request.requester._id,
        before: { status: request.status },
        after: { status: 'granted', device: request.device.name, schedule: grant.schedule },
      });
    return ok;
  });
  if (!claimed) throw alreadyAnswered(request);
  try {
    await grantDirectAccess(db, context, request.device._id, request.requester._id, grant.schedule);
  } catch (error) {
    await reopen(db, context.portalId, id, nowIso());
    throw error;
  }
  return requireRequest(db, context.portalId, id);
}

/** Declines a waiting request with the reason its person reads. */
export async function declineRequest(
  db: Database,
  context: ChangeContext,
  id: string,
  decline: AccessRequestDecline,
): Promise<AccessRequest> {
  const request = await requireRequest(db, context.portalId, id);
  const claimed = await db.transaction().execute(async (trx) => {
    const ok = await answerWaiting(trx, context.portalId, id, {
      status: 'declined',
      reason: decline.reason,
      by: context.actorUserId,
      at: nowIso(),
    });
    if (ok)
      await recordChange(trx, context, {
        action: 'access_request.decline',
        entityType: 'access_request',
        entityId: id,
        deviceId: request.device._id,
        userId: request.requester._id,
        before: { status: request.status },
        after: { status: 'declined', device: request.device.name, reason: decline.reason },
      });
    return ok;
  });
  if (!claimed) throw alreadyAnswered(request);
  return requireRequest(db, context.portalId, id);
}

/** The person takes back their own waiting request. */
export async function withdrawRequest(
  db: Database,
  context: ChangeContext,
  id: string,
): Promise<AccessRequest> {
  const request = await requireRequest(db, context.portalId, id);
  if (request.requester._id !== context.actorUserId) throw AppError.notFound('Access request');
  const claimed = await db.transaction().execute(async (trx) => {
    const ok = await answerWaiting(trx, context.portalId, id, {
      status: 'withdrawn',
      by: null,
      at: nowIso(),
    });
    if (ok)
      await recordChange(trx, context, {
        action: 'access_request.withdraw',
        entityType: 'access_request',
        entityId: id,
        deviceId: request.device._id,
        userId: request.requester._id,
        before: { status: request.status },
        after: { status: 'withdrawn' },
      });
    return ok;
  });
  if (!claimed) throw alreadyAnswered(request);
  return requireRequest(db, context.portalId, id);
}

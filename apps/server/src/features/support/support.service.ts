// Support requests (issue 20, item 4; docs/decisions.md "Support requests"). Who sees what:
// - the person who filed a request: it, its thread and its images;
// - an admin of its portal: every request of the portal (and may reply on the portal's side);
// - any other member of the portal (another basic user): not its existence (404);
// - platform staff: every request of every portal, through the system routes only;
// - another portal: nothing, whatever the ids (every portal-side query is by the acting portal).
import crypto from 'node:crypto';
import {
  SUPPORT_MAX_IMAGES,
  supportInboxQuerySchema,
  supportListQuerySchema,
  supportRequestInputSchema,
  type SupportRequestDetail,
  type SupportPage,
  type SupportReplyInput,
  type SupportUpdate,
} from '@latchkey/shared';
import type { z } from 'zod';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { ActingPortal, ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { appendAuditEntry, recordChange } from '../../base/audit/audit.repository';
import { sendMail } from '../../base/mail/send-mail';
import { assertFeatureEnabled } from '../../base/feature-flags/feature-flags';
import { findUserById } from '../../base/identity/users.repository';
import type { UserRow } from '../../db/schema';
import { imageKey, removeImage, storeImage, type ImageSize } from '../listings/image-processing';
import type { Support } from './support.plugin';
import {
  findImage,
  findRequest,
  findRequestForStaff,
  insertImage,
  insertMessage,
  insertRequest,
  listImages,
  listInbox,
  listMessages,
  listPortalRequests,
  updateRequest,
  type SupportRequestListRow,
} from './support.repository';
import { presentDetail, presentRequest } from './support.presenter';
import { supportReplyMail } from './support-mail';

/** The person asking and where they act. */
export interface MemberCaller {
  user: UserRow;
  acting: ActingPortal;
  ip: string;
}

const isPortalAdmin = (caller: MemberCaller) => caller.acting.role === 'admin';

function contextOf(caller: MemberCaller): ChangeContext {
  return { portalId: caller.acting.portal.id, actorUserId: caller.user.id, ip: caller.ip };
}

/** The request as its caller may see it: 404 for another portal's and for another person's (non-admin). */
async function visibleRequest(db: Database, caller: MemberCaller, requestId: string) {
  const row = await findRequest(db, caller.acting.portal.id, requestId);
  if (!row || (!isPortalAdmin(caller) && row.user_id !== caller.user.id)) {
    throw AppError.notFound('Support request');
  }
  return row;
}

async function detailOf(db: Database, row: SupportRequestListRow): Promise<SupportRequestDetail> {
  const [images, messages] = await Promise.all([
    listImages(db, row.portal_id, row.id),
    listMessages(db, row.portal_id, row.id),
  ]);
  return presentDetail(row, images, messages);
}

/**
 * Files a request with up to SUPPORT_MAX_IMAGES images: counted against the person's and the
 * portal's limits first, the images checked and stored (re-encoded, without metadata) before the
 * record, and removed again when the record is not written.
 */
export async function fileRequest(
  db: Database,
  support: Support,
  caller: MemberCaller,
  input: z.output<typeof supportRequestInputSchema>,
  uploads: Buffer[],
): Promise<SupportRequestDetail> {
  if (uploads.length > SUPPORT_MAX_IMAGES) {
    throw AppError.badRequest(`At most ${SUPPORT_MAX_IMAGES} images`);
  }
  // The `support` feature flag (issue 20, item 1): switched off, nobody files or writes; what was
  // filed stays readable, and staff keep answering.
  await assertFeatureEnabled(db, caller.acting.portal.id, 'support');
  await support.countRequest(caller.acting.portal.id, caller.user.id);
  const portalId = caller.acting.portal.id;
  const id = crypto.randomUUID();
  const stored: { id: string; width: number; height: number; bytes: number }[] = [];
  try {
    for (const upload of uploads) {
      const imageId = crypto.randomUUID();
      const image = await storeImage(support.images, imageId, upload);
      stored.push({ id: imageId, ...image });
    }
    const now = nowIso();
    await db.transaction().execute(async (trx) => {
      await insertRequest(trx, {
        id,
        portal_id: portalId,
        user_id: caller.user.id,
        type: input.type,
        description: input.description,
        nav_id: input.navId,
        status: 'open',
        assignee_id: null,
        created_at: now,
        updated_at: now,
      });
      for (const [position, image] of stored.entries()) {
        await insertImage(trx, {
          id: image.id,
          portal_id: portalId,
          request_id: id,
          width: image.width,
          height: image.height,
          bytes: image.bytes,
          position,
          created_at: now,
        });
      }
      await recordChange(trx, contextOf(caller), {
        action: 'support.request.create',
        entityType: 'support_request',
        entityId: id,
        after: { type: input.type, navId: input.navId, images: stored.length },
      });
    });
  } catch (error) {
    await Promise.all(stored.map((image) => removeImage(support.images, image.id)));
    throw error;
  }
  return detailOf(db, (await findRequest(db, portalId, id))!);
}

/** GET portal/support: a person's own requests; a portal admin's: the portal's (or theirs with `mine`). */
export async function listForMember(
  db: Database,
  caller: MemberCaller,
  query: z.output<typeof supportListQuerySchema>,
): Promise<SupportPage> {
  const onlyMine = !isPortalAdmin(caller) || query.mine === 'true';
  const { rows, total } = await listPortalRequests(db, caller.acting.portal.id, {
    skip: query.skip,
    limit: query.limit,
    status: query.status,
    type: query.type,
    ...(onlyMine && { userId: caller.user.id }),
  });
  return { items: rows.map(presentRequest), total: Number(total) };
}

export async function readForMember(
  db: Database,
  caller: MemberCaller,
  requestId: string,
): Promise<SupportRequestDetail> {
  return detailOf(db, await visibleRequest(db, caller, requestId));
}

/**
 * The person (or their portal's admin) adds a message: it waits for staff again (`open`), a closed
 * request included.
 */
export async function replyAsMember(
  db: Database,
  support: Support,
  caller: MemberCaller,
  requestId: string,
  input: SupportReplyInput,
): Promise<SupportRequestDetail> {
  const row = await visibleRequest(db, caller, requestId);
  await assertFeatureEnabled(db, row.portal_id, 'support');
  await support.countMessage(caller.user.id);
  const from = row.user_id === caller.user.id ? 'requester' : 'portal';
  await db.transaction().execute(async (trx) => {
    const now = nowIso();
    await insertMessage(trx, {
      id: crypto.randomUUID(),
      portal_id: row.portal_id,
      request_id: row.id,
      author_id: caller.user.id,
      author_role: from,
      text: input.message,
      created_at: now,
    });
    await updateRequest(trx, row.portal_id, row.id, { status: 'open', updated_at: now });
    await recordChange(trx, contextOf(caller), {
      action: 'support.request.reply',
      entityType: 'support_request',
      entityId: row.id,
      before: { status: row.status },
      after: { status: 'open', from },
    });
  });
  return detailOf(db, (await findRequest(db, row.portal_id, row.id))!);
}

/** An image's bytes for the request's person, its portal's admins (size: large or thumb). */
export async function readImageForMember(
  db: Database,
  support: Support,
  caller: MemberCaller,
  requestId: string,
  imageId: string,
  size: ImageSize,
) {
  const row = await visibleRequest(db, caller, requestId);
  return readImage(db, support, row.portal_id, row.id, imageId, size);
}

async function readImage(
  db: Database,
  support: Support,
  portalId: string,
  requestId: string,
  imageId: string,
  size: ImageSize,
) {
  const image = await findImage(db, portalId, requestId, imageId);
  if (!image) throw AppError.notFound('Image');
  const stored = await support.images.get(imageKey(image.id, size));
  if (!stored) throw AppError.notFound('Image');
  return stored;
}

// Platform staff (system routes): every portal's requests.

async function staffRequest(db: Database, requestId: string) {
  const row = await findRequestForStaff(db, requestId);
  if (!row) throw AppError.notFound('Support request');
  return row;
}

/** GET system/support: the inbox, filtered; `assignee: me` is the calling staff member's. */
export async function listForStaff(
  db: Database,
  staff: UserRow,
  query: z.output<typeof supportInboxQuerySchema>,
): Promise<SupportPage> {
  const { rows, total } = await listInbox(db, {
    skip: query.skip,
    limit: query.limit,
    status: query.status,
    type: query.type,
    portalId: query.portalId,
    assigneeId: query.assignee === 'me' ? staff.id : query.assignee === 'none' ? null : undefined,
    search: query.search,
  });
  return { items: rows.map(presentRequest), total: Number(total) };
}

export async function readForStaff(db: Database, requestId: string): Promise<SupportRequestDetail> {
  return detailOf(db, await staffRequest(db, requestId));
}

export async function readImageForStaff(
  db: Database,
  support: Support,
  requestId: string,
  imageId: string,
  size: ImageSize,
) {
  const row = await staffRequest(db, requestId);
  return readImage(db, support, row.portal_id, row.id, imageId, size);
}

/** POST system/support/{id}: assign to a staff member (or nobody) and/or set the status; audited. */
export async function updateForStaff(
  db: Database,
  staff: UserRow,
  ip: string,
  requestId: string,
  patch: SupportUpdate,
): Promise<SupportRequestDetail> {
  const row = await staffRequest(db, requestId);
  if (patch.assigneeId) {
    const assignee = await findUserById(db, patch.assigneeId);
    if (!assignee || assignee.platform_role !== 'superAdmin') {
      throw AppError.badRequest('Only platform staff can be assigned', [
        { path: 'body.assigneeId', message: 'is not a member of the platform staff' },
      ]);
    }
  }
  const next = {
    ...(patch.status !== undefined && { status: patch.status }),
    ...(patch.assigneeId !== undefined && { assignee_id: patch.assigneeId }),
  };
  await db.transaction().execute(async (trx) => {
    await updateRequest(trx, row.portal_id, row.id, { ...next, updated_at: nowIso() });
    await appendAuditEntry(trx, row.portal_id, {
      actorUserId: staff.id,
      ip,
      action: 'support.request.update',
      entityType: 'support_request',
      entityId: row.id,
      before: { status: row.status, assigneeId: row.assignee_id },
      after: { status: patch.status ?? row.status, assigneeId: patch.assigneeId ?? row.assignee_id },
    });
  });
  return readForStaff(db, row.id);
}

/**
 * POST system/support/{id}/reply: staff answer; the request becomes `answered` (taken by the
 * answering staff member if nobody had it) and the person gets the answer by mail with a link to
 * the request in the app. A `system` mail: it goes only to the person who filed the request, about
 * their own request, sent by platform staff (no portal member chooses its recipient).
 */
export async function replyAsStaff(
  db: Database,
  support: Support,
  staff: UserRow,
  ip: string,
  requestId: string,
  input: SupportReplyInput,
): Promise<SupportRequestDetail> {
  const row = await staffRequest(db, requestId);
  await support.countMessage(staff.id);
  await db.transaction().execute(async (trx) => {
    const now = nowIso();
    await insertMessage(trx, {
      id: crypto.randomUUID(),
      portal_id: row.portal_id,
      request_id: row.id,
      author_id: staff.id,
      author_role: 'staff',
      text: input.message,
      created_at: now,
    });
    await updateRequest(trx, row.portal_id, row.id, {
      status: 'answered',
      ...(row.assignee_id === null && { assignee_id: staff.id }),
      updated_at: now,
    });
    await appendAuditEntry(trx, row.portal_id, {
      actorUserId: staff.id,
      ip,
      action: 'support.request.answer',
      entityType: 'support_request',
      entityId: row.id,
      before: { status: row.status },
      after: { status: 'answered' },
    });
    const mail = supportReplyMail({
      name: row.user_first_name,
      type: row.type,
      description: row.description,
      message: input.message,
      link: `${support.publicUrl}/app/support/request/${row.id}`,
    });
    await sendMail(trx, 'system', {
      portalId: row.portal_id,
      template: 'support_reply',
      to: row.user_email,
      ...mail,
    });
  });
  return readForStaff(db, row.id);
}

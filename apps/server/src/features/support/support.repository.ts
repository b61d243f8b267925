// Support requests, their messages and images. Portal-owned: every query of the portal's side takes
// the portal id; the staff inbox (listInbox, findForStaff) is the one cross-portal read, and only
// platform routes call it.
import type { Insertable } from 'kysely';
import type { SupportStatus, SupportType } from '@latchkey/shared';
import type { Database } from '../../db/database';
import type { SupportImagesTable, SupportMessagesTable, SupportRequestsTable } from '../../db/schema';
import { containsText } from '../../db/like';

/** A request with the names the lists show (the person, the portal, the assignee) and its counts. */
function requestsWithNames(db: Database) {
  return db
    .selectFrom('support_requests as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .innerJoin('portals as p', 'p.id', 'r.portal_id')
    .leftJoin('users as a', 'a.id', 'r.assignee_id')
    .select((eb) => [
      'r.id',
      'r.portal_id',
      'r.user_id',
      'r.type',
      'r.description',
      'r.nav_id',
      'r.status',
      'r.assignee_id',
      'r.created_at',
      'r.updated_at',
      'u.first_name as user_first_name',
      'u.last_name as user_last_name',
      'u.email as user_email',
      'p.name as portal_name',
      'a.first_name as assignee_first_name',
      'a.last_name as assignee_last_name',
      eb
        .selectFrom('support_images as i')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .whereRef('i.request_id', '=', 'r.id')
        .as('image_count'),
      eb
        .selectFrom('support_messages as m')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .whereRef('m.request_id', '=', 'r.id')
        .as('message_count'),
    ]);
}

export type SupportRequestListRow = Awaited<
  ReturnType<ReturnType<typeof requestsWithNames>['executeTakeFirstOrThrow']>
>;

export async function insertRequest(db: Database, row: Insertable<SupportRequestsTable>): Promise<void> {
  await db.insertInto('support_requests').values(row).execute();
}

export async function insertMessage(db: Database, row: Insertable<SupportMessagesTable>): Promise<void> {
  await db.insertInto('support_messages').values(row).execute();
}

export async function insertImage(db: Database, row: Insertable<SupportImagesTable>): Promise<void> {
  await db.insertInto('support_images').values(row).execute();
}

/** One request of the portal, with its names. */
export function findRequest(db: Database, portalId: string, requestId: string) {
  return requestsWithNames(db)
    .where('r.portal_id', '=', portalId)
    .where('r.id', '=', requestId)
    .executeTakeFirst();
}

/** One request of any portal, for platform staff. */
export function findRequestForStaff(db: Database, requestId: string) {
  return requestsWithNames(db).where('r.id', '=', requestId).executeTakeFirst();
}

export interface RequestFilter {
  status?: SupportStatus;
  type?: SupportType;
  skip: number;
  limit: number;
}

/** A page of the portal's requests (all of them, or one person's), the last changed first. */
export async function listPortalRequests(
  db: Database,
  portalId: string,
  filter: RequestFilter & { userId?: string },
) {
  let query = requestsWithNames(db).where('r.portal_id', '=', portalId);
  if (filter.userId) query = query.where('r.user_id', '=', filter.userId);
  if (filter.status) query = query.where('r.status', '=', filter.status);
  if (filter.type) query = query.where('r.type', '=', filter.type);
  let count = db
    .selectFrom('support_requests as r')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('r.portal_id', '=', portalId);
  if (filter.userId) count = count.where('r.user_id', '=', filter.userId);
  if (filter.status) count = count.where('r.status', '=', filter.status);
  if (filter.type) count = count.where('r.type', '=', filter.type);
  const [rows, total] = await Promise.all([
    query.orderBy('r.updated_at', 'desc').orderBy('r.id').offset(filter.skip).limit(filter.limit).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** The staff inbox: every portal's requests, filtered, the last changed first. */
export async function listInbox(
  db: Database,
  filter: RequestFilter & {
    portalId?: string;
    assigneeId?: string | null;
    search?: string;
  },
) {
  const apply = <Q extends ReturnType<typeof requestsWithNames>>(query: Q): Q => {
    let q = query;
    if (filter.status) q = q.where('r.status', '=', filter.status) as Q;
    if (filter.type) q = q.where('r.type', '=', filter.type) as Q;
    if (filter.portalId) q = q.where('r.portal_id', '=', filter.portalId) as Q;
    if (filter.assigneeId === null) q = q.where('r.assignee_id', 'is', null) as Q;
    else if (filter.assigneeId) q = q.where('r.assignee_id', '=', filter.assigneeId) as Q;
    if (filter.search) {
      const search = filter.search;
      q = q.where((eb) =>
        eb.or([
          containsText('r.description', search),
          containsText('u.email', search),
          containsText('u.first_name', search),
          containsText('u.last_name', search),
          containsText('p.name', search),
        ]),
      ) as Q;
    }
    return q;
  };
  const [rows, total] = await Promise.all([
    apply(requestsWithNames(db))
      .orderBy('r.updated_at', 'desc')
      .orderBy('r.id')
      .offset(filter.skip)
      .limit(filter.limit)
      .execute(),
    apply(requestsWithNames(db))
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

/** A request's thread, oldest first, with each author's name. */
export function listMessages(db: Database, portalId: string, requestId: string) {
  return db
    .selectFrom('support_messages as m')
    .leftJoin('users as u', 'u.id', 'm.author_id')
    .select(['m.id', 'm.author_id', 'm.author_role', 'm.text', 'm.created_at', 'u.first_name', 'u.last_name'])
    .where('m.portal_id', '=', portalId)
    .where('m.request_id', '=', requestId)
    .orderBy('m.created_at')
    .orderBy('m.id')
    .execute();
}

export type SupportMessageListRow = Awaited<ReturnType<typeof listMessages>>[number];

export function listImages(db: Database, portalId: string, requestId: string) {
  return db
    .selectFrom('support_images')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('request_id', '=', requestId)
    .orderBy('position')
    .execute();
}

export function findImage(db: Database, portalId: string, requestId: string, imageId: string) {
  return db
    .selectFrom('support_images')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('request_id', '=', requestId)
    .where('id', '=', imageId)
    .executeTakeFirst();
}

export async function updateRequest(
  db: Database,
  portalId: string,
  requestId: string,
  patch: { status?: SupportStatus; assignee_id?: string | null; updated_at: string },
): Promise<void> {
  await db
    .updateTable('support_requests')
    .set(patch)
    .where('portal_id', '=', portalId)
    .where('id', '=', requestId)
    .execute();
}

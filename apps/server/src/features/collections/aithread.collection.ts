import {
  supportListQuerySchema,
  supportReplyInputSchema,
  supportRequestDetailSchema,
} from '@latchkey/shared';
import { actingPortal, signedIn } from '../../base/http/access';
import { listForMember, readForMember, replyAsMember, type MemberCaller } from '../support/support.service';
import { collectionMethod, defineCollection, type CollectionCaller } from './registry';

const member = (caller: CollectionCaller): MemberCaller => ({
  user: signedIn(caller.request).user,
  acting: actingPortal(caller.request),
  ip: caller.request.ip,
});

/**
 * `aithread` (issue 21): a conversation thread is a support request's thread here
 * (features/support: the person, their portal's admins and platform staff writing to each other),
 * so no outside service is needed (docs/decisions.md). The person sees their own threads, an admin
 * the portal's; a reply goes through support's own rules (limits, status, staff mail). `ls`: a
 * thread changes when a message or an image is added or its status or assignee moves (migration
 * 0050); threads are never deleted.
 */
export const aithreadCollection = defineCollection({
  name: 'aithread',
  feature: 'support',
  idKind: 'supportRequestId',
  record: supportRequestDetailSchema,
  get: {
    access: 'member',
    summary: "A support request's thread (as GET portal/support/{id})",
    handler: (caller, id) => readForMember(caller.db, member(caller), id),
  },
  list: {
    access: 'member',
    summary: "A page of threads with their messages: a person's own, an admin's the portal's",
    filter: supportListQuerySchema,
    handler: async (caller, query) => {
      const page = await listForMember(caller.db, member(caller), query);
      const items = [];
      for (const item of page.items) items.push(await readForMember(caller.db, member(caller), item._id));
      return { items, total: page.total };
    },
  },
  methods: {
    reply: collectionMethod({
      access: 'member',
      summary: 'Add a message to the thread (as POST portal/support/{id}/reply)',
      body: supportReplyInputSchema,
      example: { message: 'It happened again this morning' },
      answer: supportRequestDetailSchema,
      handler: (caller, id, body) => replyAsMember(caller.db, caller.app.support, member(caller), id, body),
    }),
  },
  // Each changed thread read as get reads it: a basic user's ls holds only their own threads.
  ls: { access: 'member', summary: 'Threads started, answered or changed since a cursor (migration 0050)' },
});

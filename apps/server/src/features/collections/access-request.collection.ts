import {
  accessRequestDeclineSchema,
  accessRequestGrantSchema,
  accessRequestInputSchema,
  accessRequestListQuerySchema,
  accessRequestSchema,
} from '@latchkey/shared';
import { z } from 'zod';
import {
  askForAccess,
  declineRequest,
  grantRequest,
  listForAdmin,
  listMine,
  readRequest,
  withdrawRequest,
} from '../access-requests/access-requests.service';
import { collectionMethod, defineCollection } from './registry';

/**
 * `accessRequest` (issue 21): a person's request for a lock (features/access-requests). Any member
 * asks and reads their own; admins read the portal's and grant (direct access with a schedule,
 * through the access service) or decline; the person withdraws their own waiting one.
 */
export const accessRequestCollection = defineCollection({
  name: 'accessRequest',
  feature: 'access-requests',
  idKind: 'accessRequestId',
  record: accessRequestSchema,
  get: {
    access: 'member',
    summary: 'An access request (its person, or an admin; as GET portal/accessRequest/{id})',
    handler: (caller, id) =>
      readRequest(
        caller.db,
        { portalId: caller.portalId, userId: caller.userId, isAdmin: caller.role === 'admin' },
        id,
      ),
  },
  list: {
    access: 'member',
    summary: "A page of access requests: an admin's are the portal's, anyone else's their own",
    filter: accessRequestListQuerySchema,
    handler: (caller, query) =>
      caller.role === 'admin'
        ? listForAdmin(caller.db, caller.portalId, query)
        : listMine(caller.db, caller.portalId, caller.userId, query),
  },
  create: {
    access: 'member',
    summary: 'Ask for access to a lock (as POST portal/accessRequest)',
    body: accessRequestInputSchema,
    example: { deviceId: '{deviceId}', note: 'Asked through the collection' },
    answer: accessRequestSchema,
    handler: (caller, body) => askForAccess(caller.db, caller.change(), body),
  },
  methods: {
    grant: collectionMethod({
      access: 'admin',
      summary: 'Grant a waiting request with a schedule (as POST portal/accessRequest/{id}/grant)',
      body: accessRequestGrantSchema,
      example: { schedule: null },
      answer: accessRequestSchema,
      handler: (caller, id, body) => grantRequest(caller.db, caller.change(), id, body),
    }),
    decline: collectionMethod({
      access: 'admin',
      summary: 'Decline a waiting request with a reason (as POST portal/accessRequest/{id}/decline)',
      body: accessRequestDeclineSchema,
      example: { reason: 'Not this lock' },
      answer: accessRequestSchema,
      handler: (caller, id, body) => declineRequest(caller.db, caller.change(), id, body),
    }),
    withdraw: collectionMethod({
      access: 'member',
      summary: "Withdraw the caller's own waiting request (as POST portal/accessRequest/{id}/withdraw)",
      body: z.object({}),
      example: {},
      answer: accessRequestSchema,
      handler: (caller, id) => withdrawRequest(caller.db, caller.change(), id),
    }),
  },
  ls: { access: 'member', summary: 'Access requests asked, answered and withdrawn since a cursor' },
});

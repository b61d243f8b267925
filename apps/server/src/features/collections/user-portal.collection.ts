import { memberDetailSchema, memberUpdateSchema, portalUsersQuerySchema } from '@latchkey/shared';
import { AppError } from '../../base/http/errors';
import { listPortalUsers } from '../members/member-list.service';
import { getMemberDetail, removeMember, updateMember } from '../members/members.service';
import { mayReadWithKey } from '../../base/http/access';
import { defineCollection, type CollectionCaller } from './registry';

/** A member's door code is a credential: an API key reads it only with `credentials:read`. */
const withCode = (caller: CollectionCaller) => ({
  withCode: mayReadWithKey(caller.request, 'credentials:read'),
});

/**
 * `userPortal`: a person's membership of the portal (features/members), named by the person's id:
 * role, status, the portal's name for them, their access code. Admins read and change anyone's; a
 * basic user reads their own. People join by invitation (POST user/invite), not through here.
 */
export const userPortalCollection = defineCollection({
  name: 'userPortal',
  feature: 'members',
  idKind: 'userId',
  record: memberDetailSchema,
  get: {
    access: 'member',
    summary:
      'A person in this portal, with their access code (as GET portal/user/{id}; a basic user: themselves)',
    handler: (caller, id) => {
      if (caller.role !== 'admin' && id !== caller.userId)
        throw AppError.forbidden('You may only see your own access');
      return getMemberDetail(caller.db, caller.portalId, id, withCode(caller));
    },
  },
  list: {
    access: 'admin',
    summary: "A page of the portal's members with their access codes (as GET portal/users)",
    filter: portalUsersQuerySchema,
    handler: async (caller, query) => {
      const page = await listPortalUsers(caller.db, caller.portalId, query);
      const items = await Promise.all(
        page.items.map((member) => getMemberDetail(caller.db, caller.portalId, member._id, withCode(caller))),
      );
      return { ...page, items };
    },
  },
  save: {
    access: 'admin',
    summary: "Change a person's role, or this portal's name for them (as POST portal/user/{id})",
    body: memberUpdateSchema,
    example: { firstName: 'Renamed' },
    handler: async (caller, id, body) => {
      await updateMember(caller.db, caller.change(), id, body);
      return getMemberDetail(caller.db, caller.portalId, id, withCode(caller));
    },
  },
  remove: {
    access: 'admin',
    summary: 'Take a person out of the portal (as DELETE portal/user/{id})',
    handler: (caller, id) => removeMember(caller.db, caller.change(), id),
  },
  ls: { access: 'member', summary: 'Memberships changed and ended since a cursor (a basic user: their own)' },
});

import { groupInputSchema, groupSchema, groupsQuerySchema } from '@latchkey/shared';
import { createGroup, getGroup, getGroupsPage, removeGroup, saveGroup } from '../groups/groups.service';
import { defineCollection } from './registry';

/**
 * `userGroup`: groups of people and locks (features/groups), for admins. A group changes for `ls`
 * when it is renamed and when a person or a lock joins or leaves it.
 */
export const userGroupCollection = defineCollection({
  name: 'userGroup',
  feature: 'groups',
  idKind: 'groupId',
  record: groupSchema,
  get: {
    access: 'admin',
    summary: 'A group (as GET portal/group/{id})',
    handler: (caller, id) => getGroup(caller.db, caller.portalId, id),
  },
  list: {
    access: 'admin',
    summary: 'A page of groups (as GET portal/groups)',
    filter: groupsQuerySchema,
    handler: (caller, query) => getGroupsPage(caller.db, caller.portalId, query),
  },
  create: {
    access: 'admin',
    summary: 'Create a group (as POST portal/group)',
    body: groupInputSchema,
    example: { name: 'Collection group' },
    answer: groupSchema,
    handler: (caller, body) => createGroup(caller.db, caller.change(), body),
  },
  save: {
    access: 'admin',
    summary: 'Rename a group or change its description (as POST portal/group/{id})',
    body: groupInputSchema,
    example: { name: 'Renamed group' },
    handler: (caller, id, body) => saveGroup(caller.db, caller.change(), id, body),
  },
  remove: {
    access: 'admin',
    summary: 'Delete a group: its people lose the access it gave (as DELETE portal/group/{id})',
    handler: (caller, id) => removeGroup(caller.db, caller.change(), id),
  },
  ls: { access: 'admin', summary: 'Groups added, changed (people, locks) and deleted since a cursor' },
});

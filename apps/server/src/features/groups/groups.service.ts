import crypto from 'node:crypto';
import type { Group, GroupInput, GroupsQuery } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toCount, toIso } from '../../db/mappers';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { findDevice, listDevices } from '../devices/devices.repository';
import { findMember, findMembers } from '../../base/tenancy/memberships.repository';
import {
  deleteGroup,
  findGroup,
  groupLockIds,
  insertGroup,
  linkGroup,
  listGroupDevices,
  listGroups,
  listGroupUsers,
  unlinkGroup,
  updateGroup,
  type GroupRecord,
} from './groups.repository';

function toGroup(row: GroupRecord): Group {
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    userCount: toCount(row.user_count),
    deviceCount: toCount(row.device_count),
    createdAt: toIso(row.created_at),
  };
}

async function requireGroup(db: Database, portalId: string, groupId: string) {
  const group = await findGroup(db, portalId, groupId);
  if (!group) throw AppError.notFound('Group');
  return group;
}

const toUserRef = (u: { id: string; email: string; first_name: string; last_name: string }) => ({
  _id: u.id,
  email: u.email,
  firstName: u.first_name,
  lastName: u.last_name,
});
const toDeviceRef = (d: { id: string; name: string; time_zone: string }) => ({
  _id: d.id,
  name: d.name,
  timeZone: d.time_zone,
});

export async function getGroupsPage(db: Database, portalId: string, query: GroupsQuery) {
  const { rows, total } = await listGroups(db, portalId, query);
  return { items: rows.map(toGroup), total: toCount(total) };
}

export async function getGroup(db: Database, portalId: string, groupId: string) {
  return toGroup(await requireGroup(db, portalId, groupId));
}

export async function createGroup(db: Database, context: ChangeContext, input: Required<GroupInput>) {
  return db.transaction().execute(async (trx) => {
    const id = crypto.randomUUID();
    await insertGroup(trx, context.portalId, id, input);
    const group = toGroup((await findGroup(trx, context.portalId, id))!);
    await recordChange(trx, context, {
      action: 'group.create',
      entityType: 'group',
      entityId: id,
      after: input,
    });
    return group;
  });
}

export async function saveGroup(
  db: Database,
  context: ChangeContext,
  groupId: string,
  input: Required<GroupInput>,
) {
  return db.transaction().execute(async (trx) => {
    const before = await requireGroup(trx, context.portalId, groupId);
    await updateGroup(trx, context.portalId, groupId, input);
    await recordChange(trx, context, {
      action: 'group.update',
      entityType: 'group',
      entityId: groupId,
      before: { name: before.name, description: before.description },
      after: input,
    });
    return toGroup((await findGroup(trx, context.portalId, groupId))!);
  });
}

export async function removeGroup(db: Database, context: ChangeContext, groupId: string) {
  await changeAccess(db, async (trx, touch) => {
    const before = await requireGroup(trx, context.portalId, groupId);
    // Its members lose the group's locks: named while the group still links them.
    await touch(context.portalId, { group: groupId });
    await deleteGroup(trx, context.portalId, groupId);
    await recordChange(trx, context, {
      action: 'group.delete',
      entityType: 'group',
      entityId: groupId,
      before: { name: before.name, description: before.description },
    });
  });
}

export async function getGroupUsers(db: Database, portalId: string, groupId: string) {
  await requireGroup(db, portalId, groupId);
  return (await listGroupUsers(db, portalId, groupId)).map(toUserRef);
}

export async function getPossibleGroupUsers(db: Database, portalId: string, groupId: string) {
  await requireGroup(db, portalId, groupId);
  const inGroup = new Set((await listGroupUsers(db, portalId, groupId)).map((u) => u.id));
  return (await findMembers(db, portalId)).filter((m) => !inGroup.has(m.id)).map(toUserRef);
}

export async function getGroupDevices(db: Database, portalId: string, groupId: string) {
  await requireGroup(db, portalId, groupId);
  return (await listGroupDevices(db, portalId, groupId)).map(toDeviceRef);
}

export async function getPossibleGroupDevices(db: Database, portalId: string, groupId: string) {
  await requireGroup(db, portalId, groupId);
  const inGroup = new Set(await groupLockIds(db, portalId, groupId));
  const { rows } = await listDevices(db, portalId, {
    skip: 0,
    limit: 10_000,
    descending: false,
    sortBy: 'name',
  });
  return rows.filter((d) => !inGroup.has(d.id)).map(toDeviceRef);
}

/** Adds or removes a person or a lock in a group; both must be in the portal. */
export async function changeGroupLink(
  db: Database,
  context: ChangeContext,
  groupId: string,
  link: { userId: string } | { deviceId: string },
  linked: boolean,
) {
  await changeAccess(db, async (trx, touch) => {
    const group = await requireGroup(trx, context.portalId, groupId);
    let label: string;
    if ('userId' in link) {
      const member = await findMember(trx, context.portalId, link.userId);
      if (!member) throw AppError.notFound('Person');
      label = member.email;
    } else {
      const device = await findDevice(trx, context.portalId, link.deviceId);
      if (!device) throw AppError.notFound('Lock');
      label = device.name;
    }
    await (linked ? linkGroup : unlinkGroup)(trx, context.portalId, groupId, link);
    // A person joining or leaving changes every lock of the group; a lock, only itself.
    await touch(context.portalId, 'userId' in link ? { group: groupId } : { locks: [link.deviceId] });
    const what = 'userId' in link ? 'user' : 'device';
    const change = { group: group.name, [what]: label };
    await recordChange(trx, context, {
      action: `group.${what}.${linked ? 'add' : 'remove'}`,
      entityType: 'group',
      entityId: groupId,
      deviceId: 'deviceId' in link ? link.deviceId : null,
      // A person joining or leaving is about every lock of the group, and no other.
      deviceIds: 'userId' in link ? await groupLockIds(trx, context.portalId, groupId) : [],
      userId: 'userId' in link ? link.userId : null,
      ...(linked ? { after: change } : { before: change }),
    });
  });
}

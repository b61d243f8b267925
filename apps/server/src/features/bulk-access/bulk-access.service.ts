import type { BulkAccessResult } from '@latchkey/shared';
import { z } from 'zod';
import { bulkAccessInputSchema } from '@latchkey/shared';
import type { Database } from '../../db/database';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { findMembers } from '../../base/tenancy/memberships.repository';
import { findDevice } from '../devices/devices.repository';
import { findGroup, groupLockIds, linkGroup, unlinkGroup } from '../groups/groups.repository';
import { linkUserToDevice, unlinkUserFromDevice } from '../access/access.repository';

type BulkAccess = z.output<typeof bulkAccessInputSchema>;

/** Ids of `userIds` who already hold the link (direct access to the lock, or membership of the group). */
async function linkedPeople(
  db: Database,
  portalId: string,
  target: BulkAccess['target'],
  userIds: readonly string[],
): Promise<Set<string>> {
  const rows =
    target.kind === 'lock'
      ? await db
          .selectFrom('device_users')
          .select('user_id')
          .where('portal_id', '=', portalId)
          .where('device_id', '=', target.id)
          .where('user_id', 'in', userIds)
          .execute()
      : await db
          .selectFrom('group_users')
          .select('user_id')
          .where('portal_id', '=', portalId)
          .where('group_id', '=', target.id)
          .where('user_id', 'in', userIds)
          .execute();
  return new Set(rows.map((row) => row.user_id));
}

/**
 * POST portal/users/access: gives or removes access to one lock or one group for several people, in
 * one transaction: every id is checked against the portal first, and one unknown (or another
 * portal's) person, lock or group refuses the whole request with a 404, changing nothing. Each
 * person changed gets the change-log entry the one-person change writes, and the locks concerned
 * (the lock, or every lock of the group) are recomputed and sent once after the commit.
 */
export async function changeAccessOfMany(
  db: Database,
  context: ChangeContext,
  input: BulkAccess,
): Promise<BulkAccessResult> {
  const { portalId } = context;
  const grant = input.change === 'grant';
  return changeAccess(db, async (trx, touch) => {
    const members = await findMembers(trx, portalId, input.userIds);
    if (members.length !== input.userIds.length) throw AppError.notFound('Person');
    let targetName: string;
    if (input.target.kind === 'lock') {
      const device = await findDevice(trx, portalId, input.target.id);
      if (!device) throw AppError.notFound('Lock');
      targetName = device.name;
    } else {
      const group = await findGroup(trx, portalId, input.target.id);
      if (!group) throw AppError.notFound('Group');
      targetName = group.name;
    }
    const linked = await linkedPeople(trx, portalId, input.target, input.userIds);
    const changing = members.filter((member) => linked.has(member.id) !== grant);
    // A person joining or leaving a group is about every lock of the group (its history shows it).
    const groupLocks =
      input.target.kind === 'group' ? await groupLockIds(trx, portalId, input.target.id) : [];
    for (const member of changing) {
      if (input.target.kind === 'lock') {
        const change = { user: member.email, device: targetName };
        if (grant) await linkUserToDevice(trx, portalId, input.target.id, member.id);
        // As the one-person revoke: the schedule is kept in the entry (and goes, with no way left).
        const schedule = grant ? null : await unlinkUserFromDevice(trx, portalId, input.target.id, member.id);
        await recordChange(trx, context, {
          action: grant ? 'access.grant' : 'access.revoke',
          entityType: 'device',
          entityId: input.target.id,
          userId: member.id,
          ...(grant ? { after: change } : { before: { ...change, schedule } }),
        });
      } else {
        await (grant ? linkGroup : unlinkGroup)(trx, portalId, input.target.id, { userId: member.id });
        const change = { group: targetName, user: member.email };
        await recordChange(trx, context, {
          action: `group.user.${grant ? 'add' : 'remove'}`,
          entityType: 'group',
          entityId: input.target.id,
          userId: member.id,
          deviceIds: groupLocks,
          ...(grant ? { after: change } : { before: change }),
        });
      }
    }
    const lockIds =
      input.target.kind === 'lock'
        ? [input.target.id]
        : (
            await trx
              .selectFrom('group_devices as gd')
              .innerJoin('devices as d', (join) =>
                join.onRef('d.id', '=', 'gd.device_id').onRef('d.portal_id', '=', 'gd.portal_id'),
              )
              .select('gd.device_id')
              .where('gd.portal_id', '=', portalId)
              .where('gd.group_id', '=', input.target.id)
              .where('d.deleted_at', 'is', null)
              .execute()
          ).map((row) => row.device_id);
    if (changing.length > 0) {
      await touch(portalId, input.target.kind === 'lock' ? { locks: lockIds } : { group: input.target.id });
    }
    return { changed: changing.length, people: members.length, lockIds };
  });
}

import type { Insertable } from 'kysely';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { DeviceInviteRow, DeviceInvitesTable } from '../../db/schema';

function liveInvites(db: Database, portalId: string, deviceId: string) {
  return db
    .selectFrom('device_invites')
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .where('deleted_at', 'is', null);
}

export function listInvitesOfDevice(db: Database, portalId: string, deviceId: string) {
  return liveInvites(db, portalId, deviceId)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export function findInvite(db: Database, portalId: string, deviceId: string, inviteId: string) {
  return liveInvites(db, portalId, deviceId).selectAll().where('id', '=', inviteId).executeTakeFirst();
}

export async function insertInvite(db: Database, row: Insertable<DeviceInvitesTable>): Promise<void> {
  await db.insertInto('device_invites').values(row).execute();
}

export async function updateInvite(
  db: Database,
  portalId: string,
  inviteId: string,
  patch: Partial<Pick<DeviceInviteRow, 'name' | 'email' | 'phone' | 'schedule_json'>> & {
    deleted_at?: string;
  },
): Promise<void> {
  await db
    .updateTable('device_invites')
    .set({ ...patch, updated_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('id', '=', inviteId)
    .execute();
}

/** Counts one more sending of the invitation. */
export async function markInviteSent(db: Database, portalId: string, inviteId: string): Promise<void> {
  await db
    .updateTable('device_invites')
    .set((eb) => ({ sent_count: eb('sent_count', '+', 1), last_sent_at: nowIso() }))
    .where('portal_id', '=', portalId)
    .where('id', '=', inviteId)
    .execute();
}

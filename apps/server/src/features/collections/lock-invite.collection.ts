import {
  deviceInviteInputSchema,
  deviceInviteSchema,
  idSchema,
  collectionCommandBodySchema,
} from '@latchkey/shared';
import { z } from 'zod';
import { signedIn } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import {
  createInvite,
  deleteInvite,
  getInvites,
  resendInvite,
  saveInvite,
  type InviteSender,
} from '../invites/invites.service';
import { collectionMethod, defineCollection, type CollectionCaller } from './registry';

/** POST lockInvite/new: the lock and the invite (as POST device/{id}/invite). */
const lockInviteCreateSchema = z.object({ deviceId: idSchema, invite: deviceInviteInputSchema });

const sender = (caller: CollectionCaller): InviteSender => ({
  user: signedIn(caller.request).user,
  throttle: caller.app.mailThrottle,
});

/** The lock an invite of this portal is for (invites are kept per lock). */
async function lockOf(caller: CollectionCaller, inviteId: string): Promise<string> {
  const row = await caller.db
    .selectFrom('device_invites')
    .select('device_id')
    .where('portal_id', '=', caller.portalId)
    .where('id', '=', inviteId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw AppError.notFound('Invite');
  return row.device_id;
}

async function readInvite(caller: CollectionCaller, id: string) {
  const invite = (await getInvites(caller.db, caller.portalId, await lockOf(caller, id))).find(
    (i) => i._id === id,
  );
  if (!invite) throw AppError.notFound('Invite');
  return invite;
}

const example = {
  name: 'Collection guest',
  days: [1, 2],
  start: '09:00',
  end: '17:00',
  startDate: '2030-02-01',
  endDate: '2030-02-28',
};

/**
 * `lockInvite`: a guest's time-bounded code for one lock (features/invites), for admins, addressed
 * by the invite's own id. Mail to the guest goes through the invitation throttle as from the REST
 * routes. There is no portal-wide list (invites are listed per lock: GET device/{id}/invite).
 */
export const lockInviteCollection = defineCollection({
  name: 'lockInvite',
  feature: 'invites',
  idKind: 'inviteId',
  record: deviceInviteSchema,
  get: { access: 'admin', summary: 'A guest invite', handler: readInvite },
  create: {
    access: 'admin',
    summary:
      'Invite a guest to a lock: a code in a weekly window between two dates (as POST device/{id}/invite)',
    body: lockInviteCreateSchema,
    example: { deviceId: '{deviceId}', invite: example },
    answer: deviceInviteSchema,
    handler: (caller, body) =>
      createInvite(caller.db, caller.change(), body.deviceId, body.invite, sender(caller)),
  },
  save: {
    access: 'admin',
    summary: 'Change a guest invite (as POST device/{id}/invite/{inviteId})',
    body: deviceInviteInputSchema,
    example,
    handler: async (caller, id, body) =>
      saveInvite(caller.db, caller.change(), await lockOf(caller, id), id, body, sender(caller)),
  },
  remove: {
    access: 'admin',
    summary:
      "Delete a guest invite; the guest's code stops working (as DELETE device/{id}/invite/{inviteId})",
    handler: async (caller, id) => deleteInvite(caller.db, caller.change(), await lockOf(caller, id), id),
  },
  methods: {
    resend: collectionMethod({
      access: 'admin',
      summary: 'Mail the guest their invite again (as GET device/{id}/invite/{inviteId}/resend)',
      body: collectionCommandBodySchema,
      example: {},
      answer: deviceInviteSchema,
      handler: async (caller, id) =>
        resendInvite(caller.db, caller.change(), await lockOf(caller, id), id, sender(caller)),
    }),
  },
  ls: { access: 'admin', summary: 'Guest invites added, changed and deleted since a cursor' },
});

import { userSyncSchema } from '@latchkey/shared';
import { AppError } from '../../base/http/errors';
import { getUserSync } from '../device-link/credential-sync.service';
import { defineCollection } from './registry';

/**
 * `syncUser`: a person's credentials on each lock they reach, pending, sent, confirmed or refused
 * (features/device-link, as GET user/{id}/sync), named by the person's id. Read only: it is what
 * the locks acknowledged, changed by nobody through here. No `ls`: its state moves with every lock's
 * acknowledgement, which the live channel announces; a client reads it again when told.
 */
export const syncUserCollection = defineCollection({
  name: 'syncUser',
  feature: 'device-link',
  idKind: 'userId',
  record: userSyncSchema,
  get: {
    access: 'member',
    summary:
      "A person's credentials on each lock they reach (as GET user/{id}/sync; a basic user: themselves)",
    handler: (caller, id) => {
      if (caller.role !== 'admin' && id !== caller.userId)
        throw AppError.forbidden('You may only see your own access');
      return getUserSync(caller.db, caller.portalId, id);
    },
  },
});

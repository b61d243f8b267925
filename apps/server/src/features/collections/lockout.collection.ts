import { lockoutInputSchema, lockoutRecordSchema, lockoutsQuerySchema } from '@latchkey/shared';
import { getLockout, getLockoutsPage, putLockout, removeLockout } from '../lockouts/lockouts.service';
import { defineCollection } from './registry';

/** `lockout`: locks blocked for a period (features/lockouts), for admins; changes reach the locks. */
export const lockoutCollection = defineCollection({
  name: 'lockout',
  feature: 'lockouts',
  idKind: 'lockoutId',
  record: lockoutRecordSchema,
  get: {
    access: 'admin',
    summary: 'A lockout (as GET portal/lockout/{id})',
    handler: (caller, id) => getLockout(caller.db, caller.portalId, id),
  },
  list: {
    access: 'admin',
    summary: 'A page of lockouts (as GET portal/lockouts)',
    filter: lockoutsQuerySchema,
    handler: (caller, query) => getLockoutsPage(caller.db, caller.portalId, query),
  },
  create: {
    access: 'admin',
    summary: 'Create a lockout (as POST portal/lockout)',
    body: lockoutInputSchema,
    example: { name: 'Collection lockout', from: '2031-01-01T00:00:00Z', deviceIds: ['{deviceId}'] },
    answer: lockoutRecordSchema,
    handler: (caller, body) => putLockout(caller.db, caller.change(), null, body),
  },
  save: {
    access: 'admin',
    summary: 'Change a lockout (as POST portal/lockout/{id})',
    body: lockoutInputSchema,
    example: { name: 'Collection lockout', from: '2031-01-01T00:00:00Z', deviceIds: ['{deviceId}'] },
    handler: (caller, id, body) => putLockout(caller.db, caller.change(), id, body),
  },
  remove: {
    access: 'admin',
    summary: 'Delete a lockout (as DELETE portal/lockout/{id})',
    handler: (caller, id) => removeLockout(caller.db, caller.change(), id),
  },
  ls: { access: 'admin', summary: 'Lockouts added, changed and deleted since a cursor' },
});

import {
  fingerprintCreateSchema,
  fingerprintSchema,
  fingerprintsQuerySchema,
  fingerprintUpdateSchema,
} from '@latchkey/shared';
import {
  createFingerprint,
  deleteFingerprint,
  getFingerprint,
  getFingerprintsPage,
  saveFingerprint,
} from '../credentials/fingerprints.service';
import { defineCollection } from './registry';

/** `fingerPrint`: fingers enrolled at a lock (features/credentials), for admins. */
export const fingerPrintCollection = defineCollection({
  name: 'fingerPrint',
  feature: 'credentials',
  idKind: 'fingerprintId',
  record: fingerprintSchema,
  get: {
    access: 'admin',
    summary: 'A fingerprint (as GET portal/fingerprint/{id})',
    handler: (caller, id) => getFingerprint(caller.db, caller.portalId, id),
  },
  list: {
    access: 'admin',
    summary: 'A page of fingerprints (as GET portal/fingerprints)',
    filter: fingerprintsQuerySchema,
    handler: (caller, query) => getFingerprintsPage(caller.db, caller.portalId, query),
  },
  create: {
    access: 'admin',
    summary: 'Record a finger enrolled at a lock for a person who can reach it (as POST portal/fingerprint)',
    body: fingerprintCreateSchema,
    example: { deviceId: '{deviceId}', userId: '{userId}', templateId: '9', finger: 'right-thumb' },
    answer: fingerprintSchema,
    handler: (caller, body) => createFingerprint(caller.db, caller.change(), body),
  },
  save: {
    access: 'admin',
    summary: 'Change which finger it is (as POST portal/fingerprint/{id})',
    body: fingerprintUpdateSchema,
    example: { finger: 'left-index' },
    handler: (caller, id, body) => saveFingerprint(caller.db, caller.change(), id, body),
  },
  remove: {
    access: 'admin',
    summary: 'Delete a fingerprint: the lock forgets it (as DELETE portal/fingerprint/{id})',
    handler: (caller, id) => deleteFingerprint(caller.db, caller.change(), id),
  },
  ls: { access: 'admin', summary: 'Fingerprints added, changed and deleted since a cursor' },
});

import { readerCreateSchema, readerPairedSchema, readerSchema, readerUpdateSchema } from '@latchkey/shared';
import { z } from 'zod';
import { defineCollection } from './registry';

/**
 * `peripheral`: the portal's paired desk readers (features/readers), for admins, on the same
 * service as portal/reader: `new` pairs one (its secret is in that answer only), a save renames it,
 * DELETE unpairs it (its secret stops working, its connection ends, its enrollments go).
 */
export const peripheralCollection = defineCollection({
  name: 'peripheral',
  feature: 'readers',
  idKind: 'readerId',
  record: readerSchema,
  get: {
    access: 'admin',
    summary: 'A reader, with whether it is online (as GET portal/reader/{id})',
    handler: (caller, id) => caller.app.readers.get(caller.portalId, id),
  },
  list: {
    access: 'admin',
    summary: "The portal's paired readers (as GET portal/readers)",
    filter: z.strictObject({}),
    handler: (caller) => caller.app.readers.list(caller.portalId),
  },
  create: {
    access: 'admin',
    summary: 'Pair a reader: answers its id and secret, this once (as POST portal/reader)',
    body: readerCreateSchema,
    example: { name: 'Collection desk', kind: 'both' },
    answer: readerPairedSchema,
    handler: (caller, body) => caller.app.readers.pair(caller.change(), body),
  },
  save: {
    access: 'admin',
    summary: 'Rename a reader or say what it reads (as POST portal/reader/{id})',
    body: readerUpdateSchema,
    example: { name: 'Renamed desk' },
    handler: (caller, id, body) => caller.app.readers.rename(caller.change(), id, body),
  },
  remove: {
    access: 'admin',
    summary: 'Unpair a reader: its secret stops working at once (as DELETE portal/reader/{id})',
    handler: (caller, id) => caller.app.readers.remove(caller.change(), id),
  },
  ls: {
    access: 'admin',
    summary: 'Readers paired, renamed, gone on- or offline and unpaired since a cursor',
  },
});

import { enrollmentKindSchema, enrollmentSchema, idSchema } from '@latchkey/shared';
import { z } from 'zod';
import { defineCollection } from './registry';

/**
 * `userPeriph`: a person's enrollments on the portal's readers, cards and fingers together
 * (features/readers), for admins, read-only (as GET portal/reader-enrollments?userId=…): a list
 * filtered by `userId` (without it, the portal's latest) and `kind`, and one by id. Starting and
 * cancelling are rfidPeriph's and fingerPrintPeriph's; their `ls` covers these records.
 */
export const userPeriphCollection = defineCollection({
  name: 'userPeriph',
  feature: 'readers',
  idKind: 'enrollmentId',
  record: enrollmentSchema,
  get: {
    access: 'admin',
    summary: 'An enrollment, card or fingerprint (as GET portal/reader-enrollment/{id})',
    handler: (caller, id) => caller.app.readers.getEnrollment(caller.portalId, id),
  },
  list: {
    access: 'admin',
    summary: "A person's latest enrollments, newest first (as GET portal/reader-enrollments?userId=…)",
    filter: z.strictObject({ userId: idSchema.optional(), kind: enrollmentKindSchema.optional() }),
    handler: async (caller, filter) => {
      const items = await caller.app.readers.listEnrollments(caller.portalId, { ...filter, limit: 50 });
      return { items, total: items.length };
    },
  },
});

import { AppError } from '../../base/http/errors';
import { enrollmentSchema, idSchema, type Enrollment } from '@latchkey/shared';
import { z } from 'zod';
import { collectionMethod, defineCollection, type CollectionCaller } from './registry';

/** How many enrollments a list answers (as GET portal/reader-enrollments). */
const ENROLLMENT_PAGE = 50;

/** One kind's enrollment, or 404 for another kind's (one collection never cancels the other's). */
async function enrollmentOfKind(
  caller: CollectionCaller,
  kind: Enrollment['kind'],
  id: string,
): Promise<Enrollment> {
  const enrollment = await caller.app.readers.getEnrollment(caller.portalId, id);
  if (enrollment.kind !== kind) throw AppError.notFound('Enrollment');
  return enrollment;
}

/**
 * `rfidPeriph` / `fingerPrintPeriph`: the card or fingerprint enrollments started on the portal's
 * readers (features/readers), for admins, on the same service as portal/reader/{id}/enroll: `new`
 * asks a reader for a card or finger for a member (409 while the reader is offline), `cancel` stops
 * waiting (this kind's only), a list is the latest (of one person with `userId`). Enrollments are never edited or
 * deleted by hand; unpairing their reader deletes them.
 */
export function readerEnrollmentCollection(name: string, kind: Enrollment['kind']) {
  const noun = kind === 'rfid' ? 'card' : 'fingerprint';
  return defineCollection({
    name,
    feature: 'readers',
    idKind: 'enrollmentId',
    record: enrollmentSchema,
    // A read answers any enrollment of the portal (its `kind` says which), as userPeriph's does; the
    // list, ls, new and cancel are this kind's only.
    get: {
      access: 'admin',
      summary: `An enrollment's state, as GET portal/reader-enrollment/{id} (the ${noun} ones are listed here)`,
      handler: (caller, id) => caller.app.readers.getEnrollment(caller.portalId, id),
    },
    list: {
      access: 'admin',
      summary: `The latest ${noun} enrollments, of one person with userId (as GET portal/reader-enrollments)`,
      filter: z.strictObject({ userId: idSchema.optional() }),
      handler: async (caller, filter) => {
        const items = await caller.app.readers.listEnrollments(caller.portalId, {
          ...filter,
          kind,
          limit: ENROLLMENT_PAGE,
        });
        return { items, total: items.length };
      },
    },
    create: {
      access: 'admin',
      summary: `Ask a reader for a ${noun} for a person (as POST portal/reader/{id}/enroll)`,
      body: z.strictObject({ readerId: idSchema, userId: idSchema }),
      example: { readerId: '{readerId}', userId: '{userId}' },
      answer: enrollmentSchema,
      handler: (caller, body) =>
        caller.app.readers.startEnrollment(caller.change(), body.readerId, { kind, userId: body.userId }),
    },
    methods: {
      cancel: collectionMethod({
        access: 'admin',
        summary: `Stop waiting for the ${noun} (as POST portal/reader-enrollment/{id}/cancel)`,
        body: z.strictObject({}),
        example: {},
        answer: enrollmentSchema,
        status: 200,
        handler: async (caller, id) => {
          await enrollmentOfKind(caller, kind, id);
          return caller.app.readers.cancelEnrollment(caller.change(), id);
        },
      }),
    },
    ls: {
      access: 'admin',
      summary: `${noun[0]!.toUpperCase()}${noun.slice(1)} enrollments started and answered since a cursor`,
    },
  });
}

import { clientErrorListQuerySchema, clientErrorSchema, clientErrorUpdateSchema } from '@latchkey/shared';
import { z } from 'zod';
import {
  listErrorsForStaff,
  readErrorForStaff,
  updateErrorForStaff,
} from '../client-errors/client-errors.service';
import { definePlatformCollection } from './registry';

/**
 * `error`: the web app's client error reports (features/client-errors), platform staff's alone:
 * they belong to no portal. get (one report with its stack), list (GET system/errors' query: the
 * most recently seen first, by status and search) and save (resolve, or open again, in the
 * platform change log), through the same service as the system/errors routes. Reports come in on
 * the public POST clientErrors (rate-limited, deduplicated), not here: a report is no staff's
 * record to make. No `ls`: the change log is per portal.
 */
export const errorCollection = definePlatformCollection({
  name: 'error',
  feature: 'client-errors',
  idKind: 'clientErrorId',
  // One report with its whole stack from get and save; the list leaves stacks out.
  record: clientErrorSchema.extend({ stack: z.string().optional() }),
  get: {
    summary: 'One client error report with its stack (as GET system/errors/{id}; platform staff)',
    handler: (caller, id) => readErrorForStaff(caller.db, id),
  },
  list: {
    summary: 'Client error reports, the most recently seen first (as GET system/errors; platform staff)',
    filter: clientErrorListQuerySchema,
    handler: (caller, query) => listErrorsForStaff(caller.db, query),
  },
  save: {
    summary: 'Mark a client error resolved, or open again (as POST system/errors/{id}; platform staff)',
    body: clientErrorUpdateSchema,
    example: { status: 'resolved' },
    handler: (caller, id, update) => updateErrorForStaff(caller.db, caller.staff, id, update),
  },
});

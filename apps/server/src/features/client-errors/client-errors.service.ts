import crypto from 'node:crypto';
import {
  topStackFrame,
  type ClientErrorDetail,
  type ClientErrorListQuery,
  type ClientErrorPage,
  type ClientErrorReport,
  type ClientErrorUpdate,
  clientErrorReportSchema,
} from '@latchkey/shared';
import type { z } from 'zod';
import { AppError } from '../../base/http/errors';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import { appendPlatformAudit } from '../platform/platform.repository';
import { presentClientError, presentClientErrorDetail } from './client-errors.presenter';
import {
  findClientError,
  listClientErrors,
  recordSighting,
  setClientErrorStatus,
} from './client-errors.repository';

/**
 * Client error reports (issue 21, the `error` collection; docs/decisions.md "Client error reports").
 * A report is counted on its fingerprint: sha256 of the message, the top stack frame (line, no
 * column) and the build. The same error from a thousand browsers is one row with a count.
 */
export function fingerprintOf(message: string, topFrame: string, build: string): string {
  return crypto.createHash('sha256').update(`${message}\n${topFrame}\n${build}`).digest('hex');
}

/** Counts one report (the route has already limited the address); answers its row and count. */
export async function reportClientError(
  db: Database,
  input: z.output<typeof clientErrorReportSchema> | ClientErrorReport,
): Promise<{ _id: string; count: number }> {
  const report = clientErrorReportSchema.parse(input);
  const topFrame = topStackFrame(report.stack);
  const row = await recordSighting(db, {
    fingerprint: fingerprintOf(report.message, topFrame, report.build),
    message: report.message,
    topFrame,
    stack: report.stack,
    route: report.route,
    build: report.build,
    userAgent: report.userAgent,
    at: nowIso(),
  });
  return { _id: row.id, count: Number(row.count) };
}

export async function listErrorsForStaff(
  db: Database,
  query: ClientErrorListQuery,
): Promise<ClientErrorPage> {
  const { rows, total } = await listClientErrors(db, query);
  return { items: rows.map(presentClientError), total };
}

export async function readErrorForStaff(db: Database, id: string): Promise<ClientErrorDetail> {
  const row = await findClientError(db, id);
  if (!row) throw AppError.notFound('Error report');
  return presentClientErrorDetail(row);
}

/** Marks an error resolved (or open again); written to the platform change log. */
export async function updateErrorForStaff(
  db: Database,
  staff: { userId: string; ip: string },
  id: string,
  update: ClientErrorUpdate,
): Promise<ClientErrorDetail> {
  return db.transaction().execute(async (trx) => {
    const before = await findClientError(trx, id);
    if (!before) throw AppError.notFound('Error report');
    if (before.status !== update.status) {
      await setClientErrorStatus(trx, id, update.status, staff.userId, nowIso());
      await appendPlatformAudit(trx, {
        actorUserId: staff.userId,
        action: update.status === 'resolved' ? 'client_error.resolve' : 'client_error.reopen',
        entityType: 'client_error',
        entityId: id,
        before: { status: before.status, message: before.message },
        after: { status: update.status },
        ip: staff.ip,
      });
    }
    return presentClientErrorDetail((await findClientError(trx, id))!);
  });
}

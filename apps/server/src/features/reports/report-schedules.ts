import type { Readable } from 'node:stream';
import {
  REPORT_SCHEDULES_PER_PORTAL,
  REPORT_TITLES,
  addDaysToDate,
  isKnownTimeZone,
  localWallTime,
  reportFiltersSchema,
  type ReportFilters,
  type ReportFrequency,
  type ReportSchedule,
  type ReportScheduleInput,
  reportScheduleInputSchema,
  personName,
} from '@latchkey/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { ReportScheduleRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { isFeatureEnabled } from '../../base/feature-flags/feature-flags';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { sendMail } from '../../base/mail/send-mail';
import { scheduledReportMail } from '../../base/mail/mail.templates';
import type { MailAttachment } from '../../base/mail/mail.repository';
import { findPortalById } from '../../base/tenancy/portals.repository';
import {
  claimSchedulePeriod,
  deleteSchedule,
  findAdmins,
  findSchedule,
  insertSchedule,
  listSchedules,
  namesInPortal,
  scopeOf,
} from './reports.repository';
import { prepareReport, reportFileName } from './reports.service';
import { reportCsv, reportPdf } from './report-files';

// Scheduled reports (docs/decisions.md "Reports"): an admin has a report mailed after each week
// (Monday to Sunday) or month on the portal's clock, to admins of the portal (their addresses are
// confirmed accounts; the mail is `system` mail to the portal's own admins). The job runs on every
// server as a PeriodicJob; each schedule is sent once per period by `claimSchedulePeriod`.

/** A CSV larger than this is not attached (the outbox keeps it until sent); the mail links the screen. */
export const MAX_CSV_ATTACHMENT = 2 * 1024 * 1024;
/** The PDF is attached when it is at most this large. */
export const MAX_PDF_ATTACHMENT = 1024 * 1024;

/** The last whole period before `now` on the portal's clock: its key and its preset. */
export function lastPeriodOf(frequency: ReportFrequency, timeZone: string, now: Date) {
  const today = localWallTime(now, timeZone);
  if (frequency === 'weekly') {
    const monday = addDaysToDate(today.date, -((today.weekday + 6) % 7));
    return { key: `week of ${addDaysToDate(monday, -7)}`, preset: 'last-week' as const };
  }
  const lastMonthDay = addDaysToDate(`${today.date.slice(0, 8)}01`, -1);
  return { key: lastMonthDay.slice(0, 7), preset: 'last-month' as const };
}

const zoneOf = (timeZone: string) => (isKnownTimeZone(timeZone) ? timeZone : 'UTC');

async function present(db: Database, portalId: string, row: ReportScheduleRow): Promise<ReportSchedule> {
  const filters = reportFiltersSchema.parse(JSON.parse(row.filters_json));
  const recipientIds = JSON.parse(row.recipients_json) as string[];
  const [named, admins] = await Promise.all([
    namesInPortal(db, portalId, scopeOf(filters)),
    findAdmins(db, portalId, recipientIds),
  ]);
  return {
    _id: row.id,
    kind: row.kind,
    frequency: row.frequency,
    filters: named,
    recipients: admins.map((admin) => ({
      _id: admin.id,
      name: personName(admin.first_name, admin.last_name, admin.email),
      email: admin.email,
    })),
    lastPeriod: row.last_period,
    lastSentAt: row.last_sent_at ? toIso(row.last_sent_at) : null,
    createdAt: toIso(row.created_at),
  };
}

/** GET portal/report/schedules. */
export async function getSchedules(db: Database, portalId: string) {
  const rows = await listSchedules(db, portalId);
  return { items: await Promise.all(rows.map((row) => present(db, portalId, row))) };
}

/** What makes two schedules the same report to the same people (ids in any order). */
function sameReportKey(input: {
  kind: string;
  frequency: string;
  filters: ReportFilters;
  recipientIds: readonly string[];
}): string {
  const sorted = (ids: readonly string[]) => [...ids].sort();
  const { deviceIds, groupIds, userIds, zoneId } = input.filters;
  return JSON.stringify([
    input.kind,
    input.frequency,
    sorted(deviceIds),
    sorted(groupIds),
    sorted(userIds),
    zoneId ?? null,
    sorted(input.recipientIds),
  ]);
}

/**
 * POST portal/report/schedules: filters must be the portal's (404), recipients its active admins
 * (404 for anyone else, another portal's people included). The period running now is the first
 * one mailed, after it ends. A portal keeps at most REPORT_SCHEDULES_PER_PORTAL, and the same
 * report to the same people once (409): each is built and mailed every period. An API key names
 * its recipients (400 without): it has no mailbox of its own.
 */
export async function createSchedule(
  db: Database,
  context: ChangeContext,
  body: ReportScheduleInput,
  now = new Date(),
): Promise<ReportSchedule> {
  const input = reportScheduleInputSchema.parse(body);
  const portal = await findPortalById(db, context.portalId);
  if (!portal) throw AppError.notFound('Portal');
  await prepareReport(
    db,
    context.portalId,
    { kind: input.kind, period: { preset: 'last-week' }, filters: input.filters },
    now,
  );
  if (context.apiKeyId && input.recipientIds.length === 0) {
    throw AppError.badRequest('Name the admins who get the report (recipientIds): an API key has no mailbox');
  }
  const recipientIds = [...new Set(input.recipientIds.length ? input.recipientIds : [context.actorUserId])];
  const admins = await findAdmins(db, context.portalId, recipientIds);
  if (admins.length < recipientIds.length) throw AppError.notFound('Admin');
  return db.transaction().execute(async (trx) => {
    const existing = await listSchedules(trx, context.portalId);
    if (existing.length >= REPORT_SCHEDULES_PER_PORTAL) {
      throw AppError.conflict(
        `A portal has at most ${REPORT_SCHEDULES_PER_PORTAL} scheduled reports: stop one you no longer need first`,
      );
    }
    const key = sameReportKey({ ...input, recipientIds });
    const same = existing.some(
      (row) =>
        sameReportKey({
          kind: row.kind,
          frequency: row.frequency,
          filters: reportFiltersSchema.parse(JSON.parse(row.filters_json)),
          recipientIds: JSON.parse(row.recipients_json) as string[],
        }) === key,
    );
    if (same) throw AppError.conflict('This report is already scheduled for these admins');
    const row = await insertSchedule(trx, context.portalId, {
      ...input,
      recipientIds,
      createdBy: context.apiKeyId ? null : context.actorUserId,
    });
    // Mailed first after the period running now: the last whole one counts as done.
    const current = lastPeriodOf(input.frequency, zoneOf(portal.time_zone), now);
    await trx
      .updateTable('report_schedules')
      .set({ last_period: current.key })
      .where('id', '=', row.id)
      .execute();
    await recordChange(trx, context, {
      action: 'report.schedule.create',
      entityType: 'report_schedule',
      entityId: row.id,
      after: {
        kind: input.kind,
        frequency: input.frequency,
        filters: input.filters,
        recipients: admins.map((a) => a.email),
      },
    });
    return present(trx, context.portalId, { ...row, last_period: current.key });
  });
}

/** DELETE portal/report/schedules/{id}. */
export async function removeSchedule(db: Database, context: ChangeContext, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await findSchedule(trx, context.portalId, id);
    if (!row) throw AppError.notFound('Scheduled report');
    await deleteSchedule(trx, context.portalId, id);
    await recordChange(trx, context, {
      action: 'report.schedule.delete',
      entityType: 'report_schedule',
      entityId: id,
      before: { kind: row.kind, frequency: row.frequency, recipients: JSON.parse(row.recipients_json) },
    });
  });
}

/** Reads a stream into memory, or answers null once it passes `max` bytes (and stops it). */
async function readUpTo(stream: Readable, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > max) {
      stream.destroy();
      return null;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * One run of the scheduled reports: every schedule whose last whole period has not been mailed is
 * made and mailed, once. The report is read before the claim; the claim (an atomic UPDATE) and the
 * queued mails share one transaction, so either both happen or neither. Answers how many were sent.
 */
export async function runReportSchedules(
  db: Database,
  publicUrl: string,
  now: Date,
  log?: FastifyBaseLogger,
): Promise<number> {
  const schedules = await db.selectFrom('report_schedules').selectAll().orderBy('id').execute();
  let sent = 0;
  for (const schedule of schedules) {
    try {
      if (await sendSchedule(db, publicUrl, schedule, now)) sent++;
    } catch (error) {
      log?.error({ err: error, scheduleId: schedule.id }, 'scheduled report not sent');
    }
  }
  return sent;
}

async function sendSchedule(db: Database, publicUrl: string, schedule: ReportScheduleRow, now: Date) {
  const portal = await findPortalById(db, schedule.portal_id);
  if (!portal) return false;
  const period = lastPeriodOf(schedule.frequency, zoneOf(portal.time_zone), now);
  if (schedule.last_period === period.key) return false;
  // Reports switched off for the portal: nothing is mailed, and the period stays unclaimed.
  if (!(await isFeatureEnabled(db, schedule.portal_id, 'reports'))) return false;
  const recipients = await findAdmins(
    db,
    schedule.portal_id,
    JSON.parse(schedule.recipients_json) as string[],
  );
  const filters = reportFiltersSchema.parse(JSON.parse(schedule.filters_json));
  // Filters naming a lock or person since deleted: the report runs without that one.
  const named = await namesInPortal(db, schedule.portal_id, scopeOf(filters));
  const kept = {
    deviceIds: named.locks.map((x) => x._id),
    groupIds: named.groups.map((x) => x._id),
    userIds: named.people.map((x) => x._id),
  };
  const context = await prepareReport(
    db,
    schedule.portal_id,
    { kind: schedule.kind, period: { preset: period.preset }, filters: kept },
    now,
  );
  const attachments: MailAttachment[] = [];
  const csv = await readUpTo(reportCsv(db, schedule.portal_id, context), MAX_CSV_ATTACHMENT);
  if (csv)
    attachments.push({ filename: reportFileName(context, 'csv'), contentType: 'text/csv', content: csv });
  const pdf = csv && (await readUpTo(await reportPdf(db, schedule.portal_id, context), MAX_PDF_ATTACHMENT));
  if (pdf)
    attachments.push({
      filename: reportFileName(context, 'pdf'),
      contentType: 'application/pdf',
      content: pdf,
    });
  const mail = scheduledReportMail({
    title: REPORT_TITLES[schedule.kind],
    portalName: portal.name,
    period: context.period.label,
    attached: attachments.map((file) => file.filename),
    notAttached: csv ? null : 'The report is too large to attach: open it in the portal to download it.',
    link: `${publicUrl}/app/deviceanduserreports`,
  });
  return db.transaction().execute(async (trx) => {
    if (!(await claimSchedulePeriod(trx, schedule.id, period.key, nowIso()))) return false;
    for (const recipient of recipients) {
      await sendMail(trx, 'system', {
        portalId: schedule.portal_id,
        template: 'scheduled_report',
        to: recipient.email,
        ...mail,
        attachments,
      });
    }
    return true;
  });
}

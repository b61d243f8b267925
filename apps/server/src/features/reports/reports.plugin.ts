import type { FastifyInstance } from 'fastify';
import { publicUrlOf, type Config } from '../../config';
import { PeriodicJob } from '../../base/jobs/periodic-job';
import { runReportSchedules } from './report-schedules';

/** How often a server asks whether a scheduled report is due (a week or month has ended). */
export const REPORT_SCHEDULE_CHECK_MS = 10 * 60_000;

/**
 * Mails the scheduled reports: a PeriodicJob ('reports.schedules', one run per period across all
 * servers); each schedule is still sent once per week or month by its own guard
 * (report-schedules.ts claimSchedulePeriod), should two runs ever overlap.
 */
export function registerReportSchedules(app: FastifyInstance, config: Config): void {
  const log = app.log.child({ feature: 'reports' });
  const job = new PeriodicJob(app.db, log, {
    name: 'reports.schedules',
    everyMs: REPORT_SCHEDULE_CHECK_MS,
    run: ({ now }) => runReportSchedules(app.db, publicUrlOf(config), now, log),
  });
  job.start();
  app.addHook('onClose', async () => {
    await job.stop();
  });
}

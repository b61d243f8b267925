import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { PeriodicJob } from '../../base/jobs/periodic-job';
import { closeDueBills, issuerOf } from './billing.service';

/** How soon after start a server first asks whether closing is due (a restart at a month's start). */
const FIRST_CLOSE_DELAY_MS = 10_000;

/**
 * Closes ended months into bills: once per BILLING_CLOSE_INTERVAL_S across all servers (a
 * PeriodicJob claimed in scheduled_jobs), the server that claims the period closes every portal's
 * months that have ended and are not closed yet. Each bill is still closed exactly once by its
 * unique (portal, year, month) key, should two runs ever overlap (billing.service.ts closeMonth).
 */
export function registerBillingCloser(app: FastifyInstance, config: Config): void {
  const everyMs = config.BILLING_CLOSE_INTERVAL_S * 1000;
  if (everyMs === 0) return;
  const issuer = issuerOf(config);
  const log = app.log.child({ feature: 'billing' });
  const job = new PeriodicJob(app.db, log, {
    name: 'billing.close',
    everyMs,
    run: ({ now }) => closeDueBills(app.db, issuer, now, log),
  });
  job.start();
  const first = setTimeout(() => void job.runIfDue(), Math.min(FIRST_CLOSE_DELAY_MS, everyMs));
  first.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    await job.stop();
  });
}

import { WEBHOOK_LOG_DAYS, WEBHOOK_RETRY_SCHEDULE_MS } from '@latchkey/shared';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { PeriodicJob } from '../../base/jobs/periodic-job';
import { pruneWebhookLog, WebhookWorker } from './webhook-delivery';
import { registerWebhookListeners } from './webhook-listeners';

declare module 'fastify' {
  interface FastifyInstance {
    /** The webhook delivery worker of this server (tests run its rounds at chosen moments). */
    webhooks: { worker: WebhookWorker };
  }
}

/** The retry schedule: WEBHOOK_RETRY_SCHEDULE_MS (tests), else the Svix schedule. */
export function retryScheduleOf(config: Pick<Config, 'WEBHOOK_RETRY_SCHEDULE_MS'>): number[] {
  const text = config.WEBHOOK_RETRY_SCHEDULE_MS.trim();
  return text ? text.split(',').map((part) => Number(part.trim())) : [...WEBHOOK_RETRY_SCHEDULE_MS];
}

/**
 * Outgoing webhooks: the listeners that write deliveries, the delivery worker (polling every
 * WEBHOOK_POLL_MS, woken at once by new deliveries) and the daily prune of the log.
 */
export function registerWebhooks(app: FastifyInstance, config: Config): void {
  registerWebhookListeners();
  const log = app.log.child({ feature: 'webhooks' });
  const worker = new WebhookWorker(app.db, log, {
    pollMs: config.WEBHOOK_POLL_MS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    allowPrivateAddresses: config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
    retryScheduleMs: retryScheduleOf(config),
  });
  const prune = new PeriodicJob(app.db, log, {
    name: 'webhooks.prune-log',
    everyMs: 24 * 3600_000,
    run: ({ now }) => pruneWebhookLog(app.db, new Date(now.getTime() - WEBHOOK_LOG_DAYS * 24 * 3600_000)),
  });
  app.decorate('webhooks', { worker });
  app.addHook('onReady', async () => {
    worker.start();
    if (config.WEBHOOK_POLL_MS > 0) {
      prune.start();
      void prune.runIfDue();
    }
  });
  app.addHook('onClose', async () => {
    await worker.stop();
    await prune.stop();
  });
}

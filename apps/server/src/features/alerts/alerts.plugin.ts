import type { FastifyInstance } from 'fastify';
import { publicUrlOf, type Config } from '../../config';
import { AlertMonitor } from './alerts.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Alert rules at work: `app.alerts.eventStored(...)`, `statusChanged(...)`, `sweepOffline()`. */
    alerts: AlertMonitor;
  }
}

/** How often the offline rules look for locks that have been silent too long. */
const OFFLINE_SWEEP_MS = 60_000;

/** Starts the alert monitor (after the live channel, which it sends alerts on). */
export function registerAlerts(app: FastifyInstance, config: Config): AlertMonitor {
  const monitor = new AlertMonitor(app.db, app.log.child({ feature: 'alerts' }), {
    live: (portalId, notification) => app.live.publish(portalId, { type: 'notification', notification }),
    link: `${publicUrlOf(config)}/app/notificationAndAlert`,
  });
  app.decorate('alerts', monitor);
  const timer = setInterval(() => {
    monitor
      .sweepOffline()
      .catch((error: unknown) => app.log.error({ err: error }, 'alerts: offline sweep failed'));
  }, OFFLINE_SWEEP_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
  return monitor;
}

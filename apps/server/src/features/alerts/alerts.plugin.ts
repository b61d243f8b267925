import type { FastifyInstance } from 'fastify';
import { publicUrlOf, type Config } from '../../config';
import { onDomainEvent, type DomainEventListener } from '../../base/events/domain-events';
import { insertDefaultAlertRules } from './alerts.repository';
import { AlertMonitor } from './alerts.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Alert rules at work: `app.alerts.eventStored(...)`, `statusChanged(...)`, `sweepOffline()`. */
    alerts: AlertMonitor;
  }
}

/** How often the offline rules look for locks that have been silent too long (one server per period). */
const OFFLINE_SWEEP_MS = 60_000;

/** Every new portal starts with the default alert rules (one function, so registering twice is a no-op). */
const addDefaultRules: DomainEventListener<'PortalCreated'> = (db, { portalId, now }) =>
  insertDefaultAlertRules(db, portalId, now);

/** Starts the alert monitor (after the live channel, which it sends alerts on). */
export function registerAlerts(app: FastifyInstance, config: Config): AlertMonitor {
  onDomainEvent('PortalCreated', addDefaultRules);
  const monitor = new AlertMonitor(
    app.db,
    app.log.child({ feature: 'alerts' }),
    {
      live: (portalId, notification) => app.live.publish(portalId, { type: 'notification', notification }),
      link: `${publicUrlOf(config)}/app/notificationAndAlert`,
    },
    OFFLINE_SWEEP_MS,
  );
  app.decorate('alerts', monitor);
  monitor.start();
  app.addHook('onClose', () => monitor.stop());
  return monitor;
}

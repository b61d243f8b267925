import type { FastifyInstance } from 'fastify';
import { publicUrlOf, type Config } from '../../config';
import { IcalImporter } from './ical-import-job';
import type { IcalDeps } from './ical-deps';

declare module 'fastify' {
  interface FastifyInstance {
    /** iCal both ways (R2): the export feed's signer and the import of other platforms' feeds. */
    ical: { deps: IcalDeps; importer: IcalImporter };
  }
}

/** Starts the import of other platforms' feeds (stopped on close). After the stays' plugin. */
export function registerCalendars(app: FastifyInstance, config: Config): void {
  const deps: IcalDeps = {
    stays: app.rental.deps,
    tokens: app.rental.deps.tokens,
    publicUrl: publicUrlOf(config),
    fetch: {
      timeoutMs: config.ICAL_FETCH_TIMEOUT_MS,
      maxBytes: config.ICAL_MAX_BYTES,
      allowPrivateHosts: config.ICAL_ALLOW_PRIVATE_HOSTS,
    },
    syncMinutes: config.ICAL_SYNC_MINUTES,
    syncNowSeconds: config.ICAL_SYNC_NOW_SECONDS,
    alertsLink: `${publicUrlOf(config)}/app/notificationAndAlert`,
  };
  const importer = new IcalImporter(app.db, app.log.child({ feature: 'ical' }), deps);
  app.decorate('ical', { deps, importer });
  importer.start();
  app.addHook('onClose', () => importer.stop());
}

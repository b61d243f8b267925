import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { publicUrlOf, type Config } from '../../config';
import { consume, type RateLimitStore } from '../../base/rate-limits/rate-limiters';
import { PortalSigningKeys } from '../device-link/portal-signing-keys';
import { DiskImageStore, type ImageStore } from '../listings/image-store';
import type { StayDeps } from '../rental/rental-context';
import { ShareTokens } from '../rental/share-tokens';
import { onDomainEvent } from '../../base/events/domain-events';
import { followListingAccess, refuseDeletingListingWithStays } from './listing-stays';
import { StayAccessMonitor } from './stay-access-monitor';

/** What the rental routes share: images, share links, limits on public requests, the access monitor. */
export interface Rental {
  images: ImageStore;
  deps: StayDeps;
  /** The portal keys that sign a guest's QR codes (the same keys as the locks' `qrKey`). */
  signingKeys: PortalSigningKeys;
  monitor: StayAccessMonitor;
  /** 429 once an address has sent too many requests (public request page, guest activation). */
  countRequest: (ip: string) => Promise<void>;
  /** 429 once an email address has been sent too many request confirmations. */
  countRequestMail: (email: string) => Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    rental: Rental;
  }
}

/**
 * The rental flow's shared parts (issue 12): the image store (DATA_DIR/images), the share-link
 * signer, the public request limits and the stay access monitor (started here, stopped on close).
 */
export function registerRental(app: FastifyInstance, config: Config, limits: RateLimitStore): Rental {
  onDomainEvent('ListingAccessChanged', followListingAccess);
  onDomainEvent('ListingDeleting', refuseDeletingListingWithStays);
  const deps: StayDeps = {
    tokens: new ShareTokens(app.secrets.jwtKey),
    publicUrl: publicUrlOf(config),
    announce: (stay) =>
      void app.live.publish(stay.portal_id, {
        type: 'stay.changed',
        stay: { _id: stay.id, listingId: stay.listing_id, state: stay.state, accessState: stay.access_state },
      }),
    notify: (portalId, notification) =>
      void app.alerts
        .announce(portalId, notification)
        .catch((error: unknown) =>
          app.log.warn({ err: error, portalId }, 'stays: a live notice was not sent'),
        ),
  };
  const perIp: RateLimiterAbstract = limits.limiter({
    keyPrefix: 'stay-request-ip',
    points: config.RENTAL_REQUESTS_PER_IP,
    duration: 3600,
  });
  const perEmail: RateLimiterAbstract = limits.limiter({
    keyPrefix: 'stay-request-email',
    points: config.RENTAL_REQUESTS_PER_EMAIL,
    duration: 3600,
  });
  const monitor = new StayAccessMonitor(app.db, app.log.child({ feature: 'stays' }), deps, {
    everyMs: config.STAY_ACCESS_CHECK_MS,
    alertAfterMinutes: config.STAY_ACCESS_ALERT_MINUTES,
    live: (portalId, notification) => app.live.publish(portalId, { type: 'notification', notification }),
    alertsLink: `${publicUrlOf(config)}/app/notificationAndAlert`,
    throttle: app.mailThrottle,
  });
  const rental: Rental = {
    images: new DiskImageStore(path.join(config.DATA_DIR, 'images')),
    deps,
    signingKeys: new PortalSigningKeys(app.secrets.jwtKey),
    monitor,
    countRequest: (ip) => consume(perIp, ip),
    countRequestMail: (email) => consume(perEmail, email.trim().toLowerCase()),
  };
  app.decorate('rental', rental);
  monitor.start();
  app.addHook('onClose', () => monitor.stop());
  return rental;
}

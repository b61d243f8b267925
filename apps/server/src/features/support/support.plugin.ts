import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { publicUrlOf, type Config } from '../../config';
import { consume, type RateLimitStore } from '../../base/rate-limits/rate-limiters';
import { DiskImageStore, type ImageStore } from '../listings/image-store';

/** New requests a person may file per hour, and a whole portal; messages a person may add per hour. */
export const SUPPORT_LIMITS = {
  requestsPerPerson: 10,
  requestsPerPortal: 60,
  messagesPerPerson: 60,
} as const;

/** What the support routes share: where images go, the limits, the app's address for mailed links. */
export interface Support {
  images: ImageStore;
  publicUrl: string;
  /** 429 once the person, or their portal, has filed too many requests this hour. */
  countRequest: (portalId: string, userId: string) => Promise<void>;
  /** 429 once the person has written too many messages this hour. */
  countMessage: (userId: string) => Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    support: Support;
  }
}

/**
 * Support requests' shared parts (issue 20, item 4): their image store (DATA_DIR/support-images,
 * apart from the listings' public pictures: these are served only behind a session) and limits.
 */
export function registerSupport(app: FastifyInstance, config: Config, limits: RateLimitStore): Support {
  const perPerson = limits.limiter({
    keyPrefix: 'support-request-person',
    points: SUPPORT_LIMITS.requestsPerPerson,
    duration: 3600,
  });
  const perPortal = limits.limiter({
    keyPrefix: 'support-request-portal',
    points: SUPPORT_LIMITS.requestsPerPortal,
    duration: 3600,
  });
  const messages = limits.limiter({
    keyPrefix: 'support-message-person',
    points: SUPPORT_LIMITS.messagesPerPerson,
    duration: 3600,
  });
  const support: Support = {
    images: new DiskImageStore(path.join(config.DATA_DIR, 'support-images')),
    publicUrl: publicUrlOf(config),
    countRequest: async (portalId, userId) => {
      await consume(perPerson, userId);
      await consume(perPortal, portalId);
    },
    countMessage: (userId) => consume(messages, userId),
  };
  app.decorate('support', support);
  return support;
}

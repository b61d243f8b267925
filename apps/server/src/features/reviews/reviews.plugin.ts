import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { ReviewMailer } from './review-mailer';

declare module 'fastify' {
  interface FastifyInstance {
    /** The review invitation after check-out (R2). */
    reviewMailer: ReviewMailer;
  }
}

/** Starts the review invitations (stopped on close). After the stays' plugin. */
export function registerReviews(app: FastifyInstance, config: Config): void {
  const mailer = new ReviewMailer(
    app.db,
    app.log.child({ feature: 'reviews' }),
    app.rental.deps,
    app.mailThrottle,
    config.REVIEW_MAIL_CHECK_MS,
  );
  app.decorate('reviewMailer', mailer);
  mailer.start();
  app.addHook('onClose', () => mailer.stop());
}

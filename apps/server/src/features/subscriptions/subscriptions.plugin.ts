import type { FastifyInstance } from 'fastify';
import { endReplacedSubscriptions, reconcileSubscriptions } from './subscription-upkeep';
import {
  applyInvoice,
  applySubscription,
  completePrepaidCheckout,
  completeSubscriptionCheckout,
} from './subscription-webhooks.service';

/** Webhook events that may leave a portal with two running subscriptions. */
const SUBSCRIPTION_EVENT = /^(checkout\.session|customer\.subscription|invoice)\./;

/**
 * Subscriptions settle their checkouts and follow the provider's subscriptions through the handlers
 * payments calls (payments imports nothing of this feature). Registered after registerPayments.
 */
export function registerSubscriptions(app: FastifyInstance): void {
  const handlers = app.payments.handlers;
  handlers.handleCheckouts('subscription', { paid: completeSubscriptionCheckout });
  handlers.handleCheckouts('prepaid', { paid: completePrepaidCheckout });
  handlers.on('SubscriptionChanged', applySubscription);
  handlers.on('InvoiceSettled', applyInvoice);
  // Two plan checkouts both paid: the older subscription is ended now, at the provider (after the
  // commit: it calls out). What fails here is left for the payments sweep (subscription-upkeep.ts).
  handlers.on('WebhookCommitted', async (db, payments, type) => {
    if (!SUBSCRIPTION_EVENT.test(type)) return;
    await endReplacedSubscriptions(db, payments).catch((error: unknown) =>
      payments.log.warn({ err: error }, 'replaced subscriptions are left for the payments sweep'),
    );
  });
  // One running subscription per portal, its quantity its lock count.
  handlers.on('Sweep', reconcileSubscriptions);
}

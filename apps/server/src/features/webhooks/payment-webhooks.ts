import type { FastifyInstance } from 'fastify';
import { onDomainEvent } from '../../base/events/domain-events';
import '../billing/bill-events';
import { findSubscriptionByProviderId } from '../subscriptions/subscriptions.repository';
import { announceWebhookEvents, portalHasEndpoints } from './webhook-events';

// payment.succeeded, payment.failed and bill.closed. The payments feature sits below this one
// (docs/ARCHITECTURE.md "Layers"): these listen to what it tells its handlers, inside the provider
// webhook's transaction, so a delivery is written with the outcome or not at all (and a provider
// retry of the same event is not handled twice: payments records each event id once).

let billListenerRegistered = false;

/** Registers after the payments and the subscriptions (app.ts): a renewal's portal is read from its subscription row. */
export function registerPaymentWebhooks(app: FastifyInstance): void {
  app.payments.handlers.on('CheckoutSettled', async (trx, event, checkout, outcome) => {
    // A plan's payments are its invoices (the first one too, paid with the checkout): announced
    // below, once each, with the invoice's id.
    if (outcome.paid && checkout.kind === 'subscription') return;
    // A guest's shop order has no portal: nobody's endpoint is told.
    if (!checkout.portal_id || !(await portalHasEndpoints(trx, checkout.portal_id, event.at.getTime())))
      return;
    await announceWebhookEvents(
      trx,
      checkout.portal_id,
      [
        {
          type: outcome.paid ? 'payment.succeeded' : 'payment.failed',
          data: {
            payment: {
              kind: checkout.kind,
              amountMinor: outcome.amountMinor,
              currency: outcome.currency,
              checkoutId: checkout.id,
              invoiceId: null,
            },
          },
        },
      ],
      event.at,
    );
  });

  // A plan's renewal: the provider's invoice, paid or declined.
  app.payments.handlers.on('InvoiceSettled', async (trx, event, invoice, paid) => {
    if (!invoice.subscription) return;
    const subscription = await findSubscriptionByProviderId(
      trx,
      event.payments.provider.name,
      invoice.subscription,
    );
    if (!subscription || !(await portalHasEndpoints(trx, subscription.portal_id, event.at.getTime()))) return;
    await announceWebhookEvents(
      trx,
      subscription.portal_id,
      [
        {
          type: paid ? 'payment.succeeded' : 'payment.failed',
          data: {
            payment: {
              kind: 'subscription',
              amountMinor: paid ? invoice.amountPaid : invoice.amountDue,
              currency: invoice.currency,
              checkoutId: null,
              invoiceId: invoice.id,
            },
          },
        },
      ],
      event.at,
    );
  });

  // Domain-event listeners are the process's (each event brings its database): registered once.
  if (billListenerRegistered) return;
  billListenerRegistered = true;
  onDomainEvent('BillClosed', async (db, { portalId, bill, year, month, now }) => {
    if (!(await portalHasEndpoints(db, portalId, now.getTime()))) return;
    await announceWebhookEvents(
      db,
      portalId,
      [
        {
          type: 'bill.closed',
          data: {
            bill: {
              _id: bill._id,
              year,
              month,
              number: bill.invoiceNumber,
              totalMinor: bill.totalMinor,
              currency: bill.currency,
            },
          },
        },
      ],
      now,
    );
  });
}

import { PLANS, type LiveNotification } from '@latchkey/shared';
import type { FastifyInstance } from 'fastify';
import { findSubscriptionByProviderId } from '../subscriptions/subscriptions.repository';
import { storeNotice } from './notices';

/** "29.00 EUR", or nothing when the provider did not say. */
const amountText = (cents: number | null, currency: string | null) =>
  cents !== null && currency ? ` of ${(cents / 100).toFixed(2)} ${currency.toUpperCase()}` : '';

/**
 * A declined renewal in the host's inbox (issue 19, item 3): the payments feature sits below the
 * alerts (docs/ARCHITECTURE.md "Layers"), so the alerts listen to its provider events rather than
 * payments calling in. Registered after the subscriptions' own listener, which has the
 * subscription's row by then. The notice is stored in the webhook's transaction (once per subscription
 * and period: retries of the same renewal are not told again) and sent live after that commits.
 */
export function registerPaymentNotices(app: FastifyInstance): void {
  const toSend: { portalId: string; live: LiveNotification }[] = [];
  app.payments.handlers.on('InvoiceSettled', async (trx, event, invoice, paid) => {
    if (paid || !invoice.subscription) return;
    const row = await findSubscriptionByProviderId(trx, event.payments.provider.name, invoice.subscription);
    if (!row) return;
    const plan = PLANS[row.plan].name;
    const live = await storeNotice(trx, row.portal_id, {
      kind: 'payment_failed',
      title: `The payment for the ${plan} plan was declined`,
      message: `The renewal${amountText(invoice.amountDue, invoice.currency)} was not paid. Check the card on the billing page before the paid time runs out.`,
      subject: { type: 'subscription', _id: row.id, name: `${plan} plan`, listingId: null },
      // Once per period it pays for: the provider retrying the same renewal is not news to the host.
      onceKey: `payment_failed:${row.id}:${invoice.periodEnd?.toISOString() ?? invoice.id}`,
    });
    if (live) toSend.push({ portalId: row.portal_id, live });
  });
  app.payments.handlers.on('WebhookCommitted', async () => {
    for (const { portalId, live } of toSend.splice(0)) await app.alerts.announce(portalId, live);
  });
}

import type { Database } from '../../db/database';
import { AppError } from '../../base/http/errors';
import { closeCheckout, findCheckoutBySession } from './checkouts.repository';
import { recordMoneyChange } from './commerce-audit';
import { WebhookSignatureError, type ProviderEvent } from './payment-provider';
import type { EventContext, Payments } from './payments-context';
import { readInvoice, readPaymentIntent, readSession, readSubscription } from './provider-objects';
import { raiseStaffAlert } from './staff-alerts';

// POST payments/webhook: the provider's word, and the only thing that changes a portal's plan or an
// order's state. The signature is checked over the raw body (a bad one: 400, nothing changes, staff
// are told once per ten minutes); each event id is handled once, in one transaction with what it
// changes, so a replay or a retry changes nothing; a handler that fails rolls back, answers 500 (the
// provider retries) and tells platform staff.

/** Ten minutes: forged webhooks raise one staff alert per window, however many arrive. */
const FORGERY_ALERT_WINDOW_MS = 10 * 60_000;

export async function handleWebhook(
  db: Database,
  payments: Payments,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ received: true; duplicate: boolean }> {
  let event: ProviderEvent;
  try {
    event = payments.provider.parseWebhook(rawBody, signature);
  } catch (error) {
    if (!(error instanceof WebhookSignatureError)) throw error;
    const window = Math.floor(Date.now() / FORGERY_ALERT_WINDOW_MS);
    await raiseStaffAlert(
      db,
      {
        kind: 'webhook_signature',
        title: 'A payment webhook with a bad signature was refused',
        message: `${error.message}. Check STRIPE_WEBHOOK_SECRET if this keeps happening; otherwise someone is sending forged events.`,
        onceKey: `webhook_signature:${window}`,
      },
      payments.publicUrl,
    );
    throw AppError.badRequest(`The webhook signature does not verify: ${error.message}`);
  }

  const at = new Date(event.created * 1000);
  try {
    const fresh = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('payment_events')
        .values({
          provider: payments.provider.name,
          event_id: event.id,
          type: event.type,
          object_id: typeof event.data.object.id === 'string' ? event.data.object.id : null,
          occurred_at: at.toISOString(),
          received_at: new Date().toISOString(),
        })
        .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
        .returning('event_id')
        .executeTakeFirst();
      if (!inserted) return false;
      await dispatch(trx, { payments, eventId: event.id, at }, event);
      return true;
    });
    // After the commit, what calls out to the provider (subscriptions: two plan checkouts both paid
    // end the older subscription). What fails here is left for the payments sweep.
    if (fresh) {
      await payments.handlers
        .emit('WebhookCommitted', db, payments, event.type)
        .catch((error: unknown) =>
          payments.log.warn(
            { err: error, type: event.type },
            'work after a webhook is left for the payments sweep',
          ),
        );
    }
    return { received: true, duplicate: !fresh };
  } catch (error) {
    payments.log.error(
      { err: error, eventId: event.id, type: event.type },
      'a payment webhook could not be handled',
    );
    await raiseStaffAlert(
      db,
      {
        kind: 'webhook_failed',
        title: `A payment webhook failed: ${event.type}`,
        message: `Event ${event.id} (${event.type}) could not be handled and will be retried by the provider: ${error instanceof Error ? error.message : String(error)}`,
        onceKey: `webhook_failed:${payments.provider.name}:${event.id}`,
      },
      payments.publicUrl,
    ).catch((alertError: unknown) =>
      payments.log.error({ err: alertError }, 'could not raise a staff alert'),
    );
    throw new AppError('webhook_failed', 'The event could not be handled; it will be retried', 500);
  }
}

async function dispatch(trx: Database, context: EventContext, event: ProviderEvent): Promise<void> {
  const object = event.data.object;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = readSession(object);
      // Paid now (a card), or later (a bank debit: async_payment_succeeded follows).
      if (!session || (session.paymentStatus !== 'paid' && session.paymentStatus !== 'no_payment_required'))
        return;
      const checkout = await findCheckoutBySession(trx, context.payments.provider.name, session.id);
      if (!checkout || checkout.id !== session.clientReferenceId) return; // not a checkout of ours
      await context.payments.handlers.forKind(checkout.kind).paid(trx, context, checkout, session);
      // Paid wins: a checkout ended here (turned back, expired) that the provider took money for is paid.
      if (
        await closeCheckout(trx, checkout.id, 'complete', context.at.toISOString(), [
          'open',
          'canceled',
          'expired',
        ])
      ) {
        await recordMoneyChange(trx, {
          portalId: checkout.portal_id,
          actorUserId: null,
          action: 'checkout.complete',
          entityType: 'checkout',
          entityId: checkout.id,
          before: { status: checkout.status },
          after: { status: 'complete', amountTotal: session.amountTotal, currency: session.currency },
        });
        await context.payments.handlers.emit('CheckoutSettled', trx, context, checkout, {
          paid: true,
          amountMinor: session.amountTotal ?? checkout.amount_total,
          currency: session.currency ?? checkout.currency,
        });
      }
      return;
    }
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed': {
      const session = readSession(object);
      if (!session) return;
      const checkout = await findCheckoutBySession(trx, context.payments.provider.name, session.id);
      if (!checkout) return;
      const status = event.type === 'checkout.session.expired' ? 'expired' : 'canceled';
      if (await closeCheckout(trx, checkout.id, status, context.at.toISOString())) {
        await context.payments.handlers.forKind(checkout.kind).ended?.(trx, checkout, status);
        await recordMoneyChange(trx, {
          portalId: checkout.portal_id,
          actorUserId: null,
          action: `checkout.${status}`,
          entityType: 'checkout',
          entityId: checkout.id,
          before: { status: 'open' },
          after: { status },
        });
      }
      if (event.type === 'checkout.session.async_payment_failed') {
        await context.payments.handlers.emit('CheckoutSettled', trx, context, checkout, {
          paid: false,
          amountMinor: checkout.amount_total,
          currency: checkout.currency,
        });
        await raiseStaffAlert(
          trx,
          {
            kind: 'payment_failed',
            title: 'A delayed payment failed',
            message: `The payment of checkout ${checkout.id} (${checkout.kind}) failed after the buyer left the checkout.`,
            portalId: checkout.portal_id,
            onceKey: `payment_failed:${event.id}`,
          },
          context.payments.publicUrl,
        );
      }
      return;
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = readSubscription(object);
      if (subscription)
        await context.payments.handlers.emit('SubscriptionChanged', trx, context, subscription);
      return;
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = readInvoice(object);
      if (invoice)
        await context.payments.handlers.emit(
          'InvoiceSettled',
          trx,
          context,
          invoice,
          event.type === 'invoice.paid',
        );
      return;
    }
    case 'payment_intent.payment_failed': {
      const intent = readPaymentIntent(object);
      if (!intent) return;
      const checkoutId = intent.metadata.checkout_id;
      const checkout = checkoutId
        ? await trx.selectFrom('checkouts').selectAll().where('id', '=', checkoutId).executeTakeFirst()
        : undefined;
      if (checkout)
        await context.payments.handlers.emit('CheckoutSettled', trx, context, checkout, {
          paid: false,
          amountMinor: intent.amount ?? checkout.amount_total,
          currency: intent.currency ?? checkout.currency,
        });
      await raiseStaffAlert(
        trx,
        {
          kind: 'payment_failed',
          title: checkout ? `A card was declined (${checkout.kind})` : 'A card was declined',
          message: `${intent.message ?? 'The payment failed.'} Payment ${intent.id}${checkout ? `, checkout ${checkout.id}` : ''}${intent.metadata.order_ref ? `, order ${intent.metadata.order_ref}` : ''}. The buyer may try again; nothing was charged.`,
          portalId: checkout?.portal_id ?? null,
          onceKey: `payment_failed:${event.id}`,
        },
        context.payments.publicUrl,
      );
      return;
    }
    default:
      // Other events (customer.created, charge.succeeded, …) carry nothing this server keeps.
      return;
  }
}

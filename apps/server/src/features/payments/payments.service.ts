import crypto from 'node:crypto';
import type { CheckoutKind, CheckoutView, PlanId } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { CheckoutRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import {
  closeCheckout,
  extendCheckout,
  findCheckoutBySession,
  findCheckoutWithToken,
  insertCheckout,
  listOverdueCheckouts,
  newCheckoutToken,
  setCheckoutSession,
} from './checkouts.repository';
import { recordMoneyChange } from './commerce-audit';
import type { CheckoutLine, CreateCheckoutInput } from './payment-provider';
import type { Payments } from './payments-context';

/** A checkout to start at the provider. */
export interface CheckoutRequest {
  kind: CheckoutKind;
  /** Made by the caller when something else (an order) must name the checkout first. */
  checkoutId?: string;
  /**
   * What it holds is held this long until its payment page is opened (then for its lifetime), with
   * providers that tell when it is (`reportsPageOpened`); with others, for its lifetime.
   */
  holdMinutes?: number;
  portalId: string | null;
  userId: string | null;
  ip: string | null;
  plan?: PlanId | null;
  months?: number | null;
  quantity?: number;
  orderId?: string | null;
  currency: string;
  mode: CreateCheckoutInput['mode'];
  lines: CheckoutLine[];
  shipping?: CreateCheckoutInput['shipping'];
  customerEmail: string | null;
  customerId?: string | null;
  metadata: Record<string, string>;
}

/**
 * Records a checkout and opens it at the provider; answers where the browser goes. The success and
 * cancel addresses carry the checkout's id and a token only this browser gets; they show the
 * outcome, which only the provider's webhook decides. Run it outside a transaction (it calls out).
 */
export async function startCheckout(
  db: Database,
  payments: Payments,
  request: CheckoutRequest,
): Promise<{ checkoutId: string; token: string; url: string }> {
  const id = request.checkoutId ?? crypto.randomUUID();
  const { token, hash } = newCheckoutToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + payments.checkoutExpiryMinutes * 60_000);
  // The provider's session lasts its lifetime; here the checkout ends sooner while unopened.
  const holdUntil =
    request.holdMinutes && payments.provider.reportsPageOpened
      ? new Date(Math.min(expiresAt.getTime(), now.getTime() + request.holdMinutes * 60_000))
      : expiresAt;
  const amountTotal =
    request.lines.reduce((sum, line) => sum + line.unitAmount * line.quantity, 0) +
    (request.shipping?.amount ?? 0);
  await insertCheckout(db, {
    id,
    portal_id: request.portalId,
    kind: request.kind,
    provider: payments.provider.name,
    provider_session_id: null,
    plan: request.plan ?? null,
    months: request.months ?? null,
    quantity: request.quantity ?? 1,
    order_id: request.orderId ?? null,
    amount_total: amountTotal,
    currency: request.currency,
    status: 'open',
    token_hash: hash,
    created_by_user_id: request.userId,
    created_at: now.toISOString(),
    expires_at: holdUntil.toISOString(),
    completed_at: null,
  });
  const query = `checkout=${encodeURIComponent(id)}&token=${encodeURIComponent(token)}`;
  let opened;
  try {
    opened = await payments.provider.createCheckout({
      mode: request.mode,
      checkoutId: id,
      lines: request.lines,
      currency: request.currency,
      customerEmail: request.customerEmail,
      customerId: request.customerId ?? null,
      shipping: request.shipping ?? null,
      metadata: { ...request.metadata, checkout_id: id, kind: request.kind },
      successUrl: `${payments.publicUrl}/success?${query}`,
      cancelUrl: `${payments.publicUrl}/canceled?${query}`,
      expiresAt,
    });
  } catch (error) {
    payments.log.error({ err: error, checkoutId: id }, 'the payment provider did not open a checkout');
    await closeCheckout(db, id, 'canceled');
    throw new AppError(
      'payment_provider_unavailable',
      'The payment provider is not answering; try again shortly',
      503,
    );
  }
  await setCheckoutSession(db, id, opened.sessionId);
  await recordMoneyChange(db, {
    portalId: request.portalId,
    actorUserId: request.userId,
    ip: request.ip,
    action: 'checkout.start',
    entityType: 'checkout',
    entityId: id,
    after: {
      kind: request.kind,
      plan: request.plan ?? null,
      months: request.months ?? null,
      amountTotal,
      currency: request.currency,
      orderId: request.orderId ?? null,
    },
  });
  return { checkoutId: id, token, url: opened.url };
}

export async function toCheckoutView(db: Database, row: CheckoutRow): Promise<CheckoutView> {
  const order = row.order_id
    ? await db.selectFrom('orders').select('ref').where('id', '=', row.order_id).executeTakeFirst()
    : undefined;
  return {
    _id: row.id,
    kind: row.kind,
    status: row.status,
    amountTotal: row.amount_total,
    currency: row.currency,
    plan: row.plan,
    months: row.months,
    orderRef: order?.ref ?? null,
    createdAt: toIso(row.created_at),
    completedAt: toIso(row.completed_at),
  };
}

/** GET payments/checkout/{id}: the outcome, for the browser holding its token (others: 404). */
export async function getCheckout(db: Database, id: string, token: string): Promise<CheckoutView> {
  const row = await findCheckoutWithToken(db, id, token);
  if (!row) throw AppError.notFound('Checkout');
  return toCheckoutView(db, row);
}

/**
 * The buyer turned back on the provider's page: the checkout is ended there first, and only if it
 * was not paid meanwhile is it canceled here and what it held released. Calling it again is harmless.
 */
export async function cancelCheckout(
  db: Database,
  payments: Payments,
  id: string,
  token: string,
  ip: string | null,
): Promise<CheckoutView> {
  const row = await findCheckoutWithToken(db, id, token);
  if (!row) throw AppError.notFound('Checkout');
  if (row.status === 'open') await endCheckout(db, payments, row, 'canceled', { actorUserId: null, ip });
  return toCheckoutView(db, (await findCheckoutWithToken(db, id, token))!);
}

/**
 * Ends an open checkout (canceled by the buyer, or expired): closed here first and what it held
 * released, then ended at the provider so it can no longer be paid. Should the provider have taken
 * the money meanwhile, its webhook still completes the checkout and the order (paid wins).
 */
export async function endCheckout(
  db: Database,
  payments: Payments,
  row: CheckoutRow,
  status: 'canceled' | 'expired',
  actor: { actorUserId: string | null; ip: string | null },
): Promise<void> {
  const closed = await db.transaction().execute(async (trx) => {
    if (!(await closeCheckout(trx, row.id, status))) return false;
    await payments.handlers.forKind(row.kind).ended?.(trx, row, status);
    await recordMoneyChange(trx, {
      portalId: row.portal_id,
      actorUserId: actor.actorUserId,
      ip: actor.ip,
      action: `checkout.${status}`,
      entityType: 'checkout',
      entityId: row.id,
      before: { status: 'open' },
      after: { status, at: nowIso() },
    });
    return true;
  });
  if (!closed || !row.provider_session_id || row.provider !== payments.provider.name) return;
  try {
    await payments.provider.expireCheckout(row.provider_session_id);
  } catch (error) {
    // The provider's own expiry ends it later; a payment before then still completes it.
    payments.log.warn({ err: error, checkoutId: row.id }, 'the payment provider did not end a checkout');
  }
}

/**
 * The buyer opened the provider's payment page (the sandbox tells; Stripe has no such signal): an
 * open checkout that held its stock for the short unopened hold now holds it for its lifetime.
 */
export async function checkoutPageOpened(db: Database, payments: Payments, sessionId: string): Promise<void> {
  const row = await findCheckoutBySession(db, payments.provider.name, sessionId);
  if (!row || row.status !== 'open') return;
  const lifetimeEnd = new Date(toIso(row.created_at)).getTime() + payments.checkoutExpiryMinutes * 60_000;
  await extendCheckout(db, row.id, new Date(lifetimeEnd));
}

/**
 * The payments sweep: checkouts past their expiry are ended (their stock released), and with the
 * sandbox, its clock moves (renewals, dunning) and its undelivered webhooks are sent again.
 */
export async function sweepPayments(db: Database, payments: Payments, now = new Date()): Promise<void> {
  for (const row of await listOverdueCheckouts(db, now)) {
    try {
      await endCheckout(db, payments, row, 'expired', { actorUserId: null, ip: null });
    } catch (error) {
      payments.log.warn({ err: error, checkoutId: row.id }, 'an overdue checkout could not be ended yet');
    }
  }
  // What the selling features keep in step (subscriptions: one running subscription per portal, its
  // quantity its lock count), registered at start.
  await payments.handlers.emit('Sweep', db, payments);
  if (payments.sandbox) {
    await payments.sandbox.renewDue(now);
    await payments.sandbox.deliverDue();
  }
}

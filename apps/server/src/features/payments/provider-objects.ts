// Readers for the Stripe-shaped objects in webhook events (both providers send Stripe's shapes).
// A field of the wrong type reads as null rather than throwing: the handlers decide what is missing.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
/** An id, whether the field holds it or the expanded object. */
const idOf = (value: unknown): string | null => text(value) ?? (isObject(value) ? text(value.id) : null);
const when = (value: unknown): Date | null => {
  const secondsValue = count(value);
  return secondsValue === null ? null : new Date(secondsValue * 1000);
};

function metadataOf(value: unknown): Record<string, string> {
  if (!isObject(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

export interface SessionFacts {
  id: string;
  mode: string | null;
  status: string | null;
  paymentStatus: string | null;
  clientReferenceId: string | null;
  customer: string | null;
  subscription: string | null;
  paymentIntent: string | null;
  amountTotal: number | null;
  currency: string | null;
  metadata: Record<string, string>;
}

export function readSession(object: Json): SessionFacts | null {
  const id = text(object.id);
  if (!id) return null;
  return {
    id,
    mode: text(object.mode),
    status: text(object.status),
    paymentStatus: text(object.payment_status),
    clientReferenceId: text(object.client_reference_id),
    customer: idOf(object.customer),
    subscription: idOf(object.subscription),
    paymentIntent: idOf(object.payment_intent),
    amountTotal: count(object.amount_total),
    currency: text(object.currency),
    metadata: metadataOf(object.metadata),
  };
}

export interface SubscriptionFacts {
  id: string;
  customer: string | null;
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
  quantity: number;
  unitAmount: number | null;
  metadata: Record<string, string>;
  /** Ended by the provider because payments failed (not by the customer). */
  endedForNonPayment: boolean;
}

export function readSubscription(object: Json): SubscriptionFacts | null {
  const id = text(object.id);
  const status = text(object.status);
  if (!id || !status) return null;
  const items = isObject(object.items) && Array.isArray(object.items.data) ? object.items.data : [];
  const item = items.find(isObject);
  const price = item && isObject(item.price) ? item.price : null;
  const details = isObject(object.cancellation_details) ? object.cancellation_details : null;
  const reason = details ? text(details.reason) : null;
  return {
    id,
    customer: idOf(object.customer),
    status,
    cancelAtPeriodEnd: object.cancel_at_period_end === true,
    // Since 2025 the period is on the subscription's items; older API versions had it on the subscription.
    currentPeriodEnd: when(item?.current_period_end) ?? when(object.current_period_end),
    quantity: count(item?.quantity) ?? count(object.quantity) ?? 1,
    unitAmount: price ? count(price.unit_amount) : null,
    metadata: metadataOf(object.metadata),
    endedForNonPayment: reason === 'payment_failed' || reason === 'payment_disputed',
  };
}

export interface InvoiceFacts {
  id: string;
  subscription: string | null;
  customer: string | null;
  amountDue: number | null;
  amountPaid: number | null;
  currency: string | null;
  /** The end of the latest period it charges for. */
  periodEnd: Date | null;
  metadata: Record<string, string>;
}

export function readInvoice(object: Json): InvoiceFacts | null {
  const id = text(object.id);
  if (!id) return null;
  const parent = isObject(object.parent) ? object.parent : null;
  const details = parent && isObject(parent.subscription_details) ? parent.subscription_details : null;
  const lines =
    isObject(object.lines) && Array.isArray(object.lines.data) ? object.lines.data.filter(isObject) : [];
  const ends = lines
    .map((line) => (isObject(line.period) ? when(line.period.end) : null))
    .filter((end): end is Date => end !== null);
  return {
    id,
    // Since 2025 the subscription is under parent.subscription_details; before, on the invoice.
    subscription: idOf(details?.subscription) ?? idOf(object.subscription),
    customer: idOf(object.customer),
    amountDue: count(object.amount_due),
    amountPaid: count(object.amount_paid),
    currency: text(object.currency),
    periodEnd: ends.length > 0 ? new Date(Math.max(...ends.map((end) => end.getTime()))) : null,
    metadata: metadataOf(details?.metadata ?? object.subscription_details),
  };
}

export interface PaymentIntentFacts {
  id: string;
  amount: number | null;
  currency: string | null;
  message: string | null;
  metadata: Record<string, string>;
}

export function readPaymentIntent(object: Json): PaymentIntentFacts | null {
  const id = text(object.id);
  if (!id) return null;
  const error = isObject(object.last_payment_error) ? object.last_payment_error : null;
  return {
    id,
    amount: count(object.amount),
    currency: text(object.currency),
    message: error ? text(error.message) : null,
    metadata: metadataOf(object.metadata),
  };
}

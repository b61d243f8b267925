import crypto from 'node:crypto';
import { WebhookSignatureError, type ProviderEvent } from './payment-provider';

// Stripe's webhook signature scheme, which the sandbox provider uses too: the header
// `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the endpoint's
// secret>`. A signature older (or newer) than the tolerance is refused, so a captured webhook cannot
// be replayed later; a replay within it is caught by the event id (handled once).

/** The header both providers sign with. */
export const SIGNATURE_HEADER = 'stripe-signature';
/** How far a signature's time may be from ours (Stripe's default). */
export const SIGNATURE_TOLERANCE_S = 300;

/** The signature header for a body, as the provider sends it. */
export function signWebhook(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const signature = crypto
    .createHmac('sha256', secret)
    .update(`${timestamp}.${payload}`, 'utf8')
    .digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/** Checks a signature header over the raw body; answers the event it carries, or throws. */
export function verifyWebhook(
  rawBody: Buffer,
  header: string | undefined,
  secret: string,
  now = Math.floor(Date.now() / 1000),
): ProviderEvent {
  if (!header) throw new WebhookSignatureError('No signature header');
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([key]) => key === 't')?.[1]);
  const signatures = parts.filter(([key]) => key === 'v1').map(([, value]) => value ?? '');
  if (!Number.isInteger(timestamp) || signatures.length === 0) {
    throw new WebhookSignatureError('The signature header is malformed');
  }
  if (Math.abs(now - timestamp) > SIGNATURE_TOLERANCE_S) {
    throw new WebhookSignatureError('The signature is too old');
  }
  const expected = crypto.createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookSignatureError('The signature does not match');
  return parseEvent(rawBody);
}

/** The event in a (verified) body; anything that is not one is refused like a bad signature. */
export function parseEvent(rawBody: Buffer | string): ProviderEvent {
  let value: unknown;
  try {
    value = JSON.parse(rawBody.toString());
  } catch {
    throw new WebhookSignatureError('The body is not JSON');
  }
  const event = value as Partial<ProviderEvent> | null;
  if (
    typeof event !== 'object' ||
    event === null ||
    typeof event.id !== 'string' ||
    typeof event.type !== 'string' ||
    typeof event.created !== 'number' ||
    typeof event.data?.object !== 'object' ||
    event.data.object === null
  ) {
    throw new WebhookSignatureError('The body is not an event');
  }
  return event as ProviderEvent;
}

import crypto from 'node:crypto';
import { sandboxWebhookSecret } from '../src/features/payments/payments.plugin';
import { signWebhook } from '../src/features/payments/webhook-signature';
import type { TestApp } from './test-app';

/** The test cards of the sandbox's hosted page. */
export const CARDS = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  confirm: '4000 0027 6000 3184',
  failsLater: '4000 0000 0000 0341',
} as const;

/** The path of the sandbox's hosted page a checkout URL points at. */
export function pagePath(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname;
}

/** Enters a card on the sandbox's hosted page, as the form posts it. */
export function payOnSandbox(t: TestApp, url: string, card: string, fields: Record<string, string> = {}) {
  return t.request({
    method: 'POST',
    url: pagePath(url),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      email: 'buyer@example.com',
      name: 'Pat Buyer',
      number: card,
      expiry: '12/34',
      cvc: '123',
      ...fields,
    }).toString(),
  });
}

/** Answers the second confirmation step (3-D Secure) on the hosted page. */
export function confirmOnSandbox(t: TestApp, url: string, approve: boolean) {
  return t.request({
    method: 'POST',
    url: `${pagePath(url)}/confirm`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `action=${approve ? 'approve' : 'fail'}`,
  });
}

/** The checkout id and token in a success or cancel address. */
export function checkoutOf(location: string): { id: string; token: string } {
  const url = new URL(location);
  return { id: url.searchParams.get('checkout')!, token: url.searchParams.get('token')! };
}

/** A webhook as the sandbox signs it, for a hand-made event. */
export function postEvent(
  t: TestApp,
  event: { type: string; object: Record<string, unknown>; created?: number; id?: string },
  signature?: string,
) {
  const body = JSON.stringify({
    id: event.id ?? `evt_test_${crypto.randomUUID()}`,
    object: 'event',
    created: event.created ?? Math.floor(Date.now() / 1000),
    type: event.type,
    data: { object: event.object },
  });
  return t.request({
    method: 'POST',
    url: '/api3/payments/webhook',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signature ?? signWebhook(body, sandboxWebhookSecret(t.app.secrets.jwtKey)),
    },
    payload: body,
  });
}

/** Re-sends a webhook the sandbox already delivered (a provider's retry, or a replay). */
export async function redeliver(t: TestApp, type: string) {
  const event = await t.app.db
    .selectFrom('sandbox_events')
    .selectAll()
    .where('type', '=', type)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return t.request({
    method: 'POST',
    url: '/api3/payments/webhook',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signWebhook(event.payload_json, sandboxWebhookSecret(t.app.secrets.jwtKey)),
    },
    payload: event.payload_json,
  });
}

/** A shipping address the shop accepts (Germany: VAT and the standard rate). */
export const SHIP_TO = {
  name: 'Pat Buyer',
  line1: 'Invalidenstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
};

/** A POST stripe/order body: these items, shipped to SHIP_TO by the standard option. */
export function orderBody(items: { productId: string; quantity: number }[], email: string) {
  return { items, email, address: SHIP_TO, shippingOption: 'standard' };
}

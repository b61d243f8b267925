import crypto from 'node:crypto';

// The Standard Webhooks signature (https://www.standardwebhooks.com, "Verifying webhook
// authenticity"): `v1,` + base64 of HMAC-SHA256 over `{id}.{timestamp}.{body}`, keyed with the
// base64-decoded part of the secret after `whsec_`. Written with node:crypto: a few lines, no
// dependency; test/webhooks.test.ts checks it with Python's hmac (an independent implementation).

const SECRET_PREFIX = 'whsec_';

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + crypto.randomBytes(32).toString('base64');
}

/** A new message id (`msg_` + 22 url-safe characters): the `webhook-id` of every attempt. */
export function newMessageId(): string {
  return `msg_${crypto.randomBytes(16).toString('base64url')}`;
}

/** One signature: `v1,<base64>`. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('A webhook secret starts with whsec_');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = crypto.createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The `webhook-signature` header: one signature per secret that signs, space-separated. */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets.map((secret) => signWebhook(secret, id, timestampSeconds, body)).join(' ');
}

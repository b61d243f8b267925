import crypto from 'node:crypto';
import { API_BASE_PATH } from '@latchkey/shared';
import type { FastifyInstance } from 'fastify';
import { ConfigError, publicUrlOf, type Config } from '../../config';
import { PaymentHandlers, type Payments } from './payments-context';
import { paymentRoutes } from './payments.routes';
import { sweepPayments } from './payments.service';
import { SandboxProvider } from './sandbox-provider';
import { sandboxRoutes } from './sandbox.routes';
import { StripeProvider } from './stripe-provider';
import { SIGNATURE_HEADER } from './webhook-signature';

declare module 'fastify' {
  interface FastifyInstance {
    /** The payment provider in use and what the money features need with it. */
    payments: Payments;
  }
}

/** The sandbox's webhook signing secret: derived from the deployment's signing key, like Stripe's whsec_. */
export function sandboxWebhookSecret(signingKey: Uint8Array): string {
  return `whsec_${crypto.createHmac('sha256', signingKey).update('latchkey sandbox webhooks').digest('base64url')}`;
}

/**
 * Payments: Stripe with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, else the built-in sandbox
 * (its hosted pages under /api3/sandbox-pay, its webhooks delivered to the same route Stripe's
 * arrive at, through the server's own HTTP handling). Also runs the payments sweep.
 */
export async function registerPayments(app: FastifyInstance, config: Config): Promise<void> {
  if (Boolean(config.STRIPE_SECRET_KEY) !== Boolean(config.STRIPE_WEBHOOK_SECRET)) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET go together',
    );
  }
  const publicUrl = publicUrlOf(config);
  let sandbox: SandboxProvider | null = null;
  const provider =
    config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
      ? new StripeProvider({
          secretKey: config.STRIPE_SECRET_KEY,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET,
          apiUrl: config.STRIPE_API_URL,
        })
      : (sandbox = new SandboxProvider(app.db, {
          pagesUrl: `${publicUrl}${API_BASE_PATH}`,
          webhookSecret: sandboxWebhookSecret(app.secrets.jwtKey),
          log: app.log,
          deliver: async (body, signature) =>
            (
              await app.inject({
                method: 'POST',
                url: `${API_BASE_PATH}/payments/webhook`,
                headers: {
                  'content-type': 'application/json',
                  [SIGNATURE_HEADER]: signature,
                  'user-agent': 'Latchkey-Sandbox/1.0',
                },
                payload: body,
              })
            ).statusCode,
        }));
  const payments: Payments = {
    provider,
    sandbox,
    publicUrl,
    checkoutExpiryMinutes: config.CHECKOUT_EXPIRY_MINUTES,
    log: app.log.child({ feature: 'payments' }),
    handlers: new PaymentHandlers(),
  };
  app.decorate('payments', payments);
  app.log.info({ provider: provider.name }, 'payments ready');

  await app.register(paymentRoutes, { prefix: API_BASE_PATH });
  if (sandbox) await app.register(sandboxRoutes(sandbox), { prefix: API_BASE_PATH });

  if (config.PAYMENTS_SWEEP_MS > 0) {
    let running: Promise<void> | null = null;
    const timer = setInterval(() => {
      running ??= sweepPayments(app.db, payments)
        .catch((error: unknown) => payments.log.error({ err: error }, 'payments sweep failed'))
        .finally(() => {
          running = null;
        });
    }, config.PAYMENTS_SWEEP_MS);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
  }
}

import {
  checkoutCancelInputSchema,
  checkoutParamsSchema,
  checkoutTokenQuerySchema,
  checkoutViewSchema,
  staffAlertsPageSchema,
  staffAlertsQuerySchema,
} from '@latchkey/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { handleWebhook } from './payment-events.service';
import { cancelCheckout, getCheckout } from './payments.service';
import { listStaffAlerts } from './staff-alerts';
import { SIGNATURE_HEADER } from './webhook-signature';

/** The provider's webhook, the outcome of a checkout for its browser, and staff payment alerts. */
export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'payments');
  const tags = ['payments'];

  // The webhook's signature is over the exact bytes sent: this route keeps the body raw.
  await app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    raw.post(
      '/payments/webhook',
      {
        config: { access: access.public },
        schema: {
          tags,
          summary: "The payment provider's signed events (Stripe's format, from Stripe or the sandbox)",
          description:
            'Verified with the `Stripe-Signature` header over the raw body; each event id is handled once. 400: bad signature (nothing changes); 500: the event failed and the provider should retry.',
          response: {
            200: z.object({ received: z.literal(true), duplicate: z.boolean() }),
            ...errorResponses,
          },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const header = request.headers[SIGNATURE_HEADER];
        return handleWebhook(app.db, app.payments, body, typeof header === 'string' ? header : undefined);
      },
    );
  });

  app.get(
    '/payments/checkout/:id',
    {
      config: { access: access.public, ids: { id: 'checkoutId' } },
      schema: {
        tags,
        summary: 'What became of a checkout (the success and canceled pages), with the token from its link',
        params: checkoutParamsSchema,
        querystring: checkoutTokenQuerySchema,
        response: { 200: checkoutViewSchema, ...errorResponses },
      },
    },
    async (request) => getCheckout(app.db, request.params.id, request.query.token),
  );

  app.post(
    '/payments/checkout/:id/cancel',
    {
      config: { access: access.public, ids: { id: 'checkoutId' } },
      schema: {
        tags,
        summary: 'The buyer turned back: end the checkout and release what it held, unless it was paid',
        params: checkoutParamsSchema,
        body: checkoutCancelInputSchema,
        response: { 200: checkoutViewSchema, ...errorResponses },
      },
    },
    async (request) =>
      cancelCheckout(app.db, app.payments, request.params.id, request.body.token, request.ip),
  );

  app.get(
    '/system/payments/alerts',
    {
      config: { access: access.platform },
      schema: {
        tags,
        summary: 'Alerts to platform staff about payments: failed and forged webhooks, failed payments',
        querystring: staffAlertsQuerySchema,
        response: { 200: staffAlertsPageSchema, ...errorResponses },
      },
    },
    async (request) => listStaffAlerts(app.db, request.query),
  );
};

import {
  cardPortalSchema,
  checkoutStartedSchema,
  portalSubscriptionSchema,
  prepaidCheckoutInputSchema,
  subscriptionCheckoutInputSchema,
  subscriptionPlanChangeSchema,
} from '@latchkey/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { access, changeContext, signedIn, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import {
  cardPortalLink,
  changeSubscriptionPlan,
  getPortalSubscription,
  moveToFreePlan,
  setSubscriptionCanceling,
  startPrepaidCheckout,
  startSubscriptionCheckout,
  type BuyerContext,
} from './subscriptions.service';

const buyer = (request: FastifyRequest): BuyerContext => ({
  ...changeContext(request),
  email: signedIn(request).user.email,
});

/** The portal's plan and payments (gopro, upgrade, upgradeLegacy, stripe/cancel), for its admins. */
export const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'subscriptions');
  const tags = ['billing'];
  const subscription = { 200: portalSubscriptionSchema, ...errorResponses };
  const started = { 201: checkoutStartedSchema, ...errorResponses };

  app.get(
    '/portal/subscription',
    {
      config: { access: access.portalAdmin },
      schema: { tags, summary: "The portal's plan, standing and subscription", response: subscription },
    },
    async (request) => getPortalSubscription(app.db, app.payments, changeContext(request).portalId),
  );

  app.post(
    '/portal/subscription/checkout',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags,
        summary: "Subscribe to a paid plan (gopro, upgrade): the provider's checkout page, priced per lock",
        body: subscriptionCheckoutInputSchema,
        response: started,
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await startSubscriptionCheckout(app.db, app.payments, buyer(request), request.body.plan)),
  );

  app.post(
    '/portal/subscription/plan',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags,
        summary:
          'Move the running subscription to another plan (prorated; applies once the provider confirms)',
        body: subscriptionPlanChangeSchema,
        response: subscription,
      },
    },
    async (request) =>
      changeSubscriptionPlan(app.db, app.payments, changeContext(request), request.body.plan),
  );

  app.post(
    '/portal/subscription/prepaid',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags,
        summary: "Pay once by card for months of a plan (upgradeLegacy): the provider's card page",
        body: prepaidCheckoutInputSchema,
        response: started,
      },
    },
    async (request, reply) =>
      reply.status(201).send(await startPrepaidCheckout(app.db, app.payments, buyer(request), request.body)),
  );

  app.delete(
    '/stripe/cancel',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags,
        summary: 'Cancel the subscription at the end of the period paid for',
        response: subscription,
      },
    },
    async (request) => setSubscriptionCanceling(app.db, app.payments, changeContext(request), true),
  );

  app.post(
    '/portal/subscription/resume',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags,
        summary: 'Keep a subscription that was to end at the end of the period',
        response: subscription,
      },
    },
    async (request) => setSubscriptionCanceling(app.db, app.payments, changeContext(request), false),
  );

  app.post(
    '/portal/subscription/free',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags,
        summary: 'Go back to the Free plan instead of paying (a lapsed portal)',
        response: subscription,
      },
    },
    async (request) => moveToFreePlan(app.db, app.payments, changeContext(request)),
  );

  app.post(
    '/portal/subscription/card',
    {
      config: { access: access.portalAdmin },
      schema: {
        tags,
        summary: "The provider's page for changing the card",
        response: { 200: cardPortalSchema, ...errorResponses },
      },
    },
    async (request) => cardPortalLink(app.db, app.payments, changeContext(request)),
  );
};

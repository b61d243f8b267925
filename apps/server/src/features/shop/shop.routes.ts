import {
  inventoryItemSchema,
  inventoryListSchema,
  orderCreatedSchema,
  orderInputSchema,
  orderListSchema,
  orderViewSchema,
  productListSchema,
  productParamsSchema,
  productSchema,
  quoteInputSchema,
  quoteSchema,
  staffOrdersPageSchema,
  staffOrdersQuerySchema,
  stockAdjustmentSchema,
  PORTAL_OVERRIDE_HEADER,
  REPEAT_ORDER_WINDOW_HOURS,
  SHOP_HOLD_LIMITS,
  idSchema,
} from '@latchkey/shared';
import { z } from 'zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { access, signedIn, routesOfFeature } from '../../base/http/access';
import { errorResponses } from '../../base/http/responses';
import { consume } from '../../base/rate-limits/rate-limiters';
import { authenticateToken } from '../../base/identity/sessions';
import { resolveActingPortal } from '../../base/tenancy/acting-portal';
import {
  adjustStock,
  cancelMyOrder,
  createOrder,
  getProduct,
  listInventory,
  listMyOrders,
  listOrdersForStaff,
  listProducts,
  quoteCart,
  type Buyer,
} from './shop.service';
import { lockAllowanceOf } from '../subscriptions/plan-allowance';
import { UNOPENED_HOLD_MINUTES } from './stock-holds';
import { assertFeatureEnabled } from '../../base/feature-flags/feature-flags';

/**
 * The buyer of a public order: a visitor, or (with a token) the signed-in person, whose locks arrive
 * in the portal they act in when they are an admin there. A token that does not verify is a 401,
 * as on any other route.
 */
async function optionalBuyer(app: FastifyInstance, request: FastifyRequest): Promise<Buyer | null> {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (!match?.[1]) return null;
  const { user } = await authenticateToken(app.db, app.secrets.jwtKey, match[1]);
  const override = request.headers[PORTAL_OVERRIDE_HEADER];
  const { acting } = await resolveActingPortal(app.db, user, typeof override === 'string' ? override : null);
  return {
    userId: user.id,
    portalId: acting?.role === 'admin' ? acting.portal.id : null,
    lockAllowance: lockAllowanceOf(app.config),
  };
}

/** The hardware shop: catalogue, priced carts, orders through the provider's checkout, and staff views. */
export const shopRoutes: FastifyPluginAsyncZod = async (app) => {
  routesOfFeature(app, 'shop');
  const tags = ['shop'];
  // Orders hold stock while they are paid for: one address may start a few an hour, not a flood.
  const orderLimiter = new RateLimiterMemory({ keyPrefix: 'shop-orders', points: 20, duration: 3600 });

  app.get(
    '/product',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: 'The products on sale, with prices and stock',
        response: { 200: productListSchema, ...errorResponses },
      },
    },
    async () => listProducts(app.db),
  );

  app.get(
    '/product/:id',
    {
      config: { access: access.public, ids: { id: 'productId' } },
      schema: {
        tags,
        summary: 'One product',
        params: productParamsSchema,
        response: { 200: productSchema, ...errorResponses },
      },
    },
    async (request) => getProduct(app.db, request.params.id),
  );

  app.post(
    '/shop/quote',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary: "A cart at the server's prices, with the shipping options for a country",
        body: quoteInputSchema,
        response: { 200: quoteSchema, ...errorResponses },
      },
    },
    async (request) => quoteCart(app.db, request.body),
  );

  app.post(
    '/stripe/order',
    {
      config: { access: access.public },
      schema: {
        tags,
        summary:
          "Order the cart at the server's prices and open the provider's checkout (stock held meanwhile)",
        description:
          "Anyone may order. With a session token, the order is the person's (order history) and, when they act in a portal as an admin, its locks arrive there pre-registered. " +
          `Stock is held ${UNOPENED_HOLD_MINUTES} minutes until the payment page is opened, then for the checkout's life. ` +
          `One buyer (the signed-in person, and the address the order comes from) holds at most ${SHOP_HOLD_LIMITS.unitsPerProduct} units of a product, ${SHOP_HOLD_LIMITS.units} in all and ${SHOP_HOLD_LIMITS.openCheckouts} open checkouts: 409 \`hold_limit\` beyond, naming the line.` +
          ` Exactly the items the same email paid for in the last ${REPEAT_ORDER_WINDOW_HOURS} hours: 409 \`already_paid\`, naming the order, unless \`again\` says it is meant.`,
        body: orderInputSchema,
        response: { 201: orderCreatedSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const buyer = await optionalBuyer(app, request);
      // The shop switched off (platform feature flags) for the deployment or the buyer's portal.
      await assertFeatureEnabled(app.db, buyer?.portalId ?? null, 'shop');
      await consume(orderLimiter, request.ip);
      return reply.status(201).send(await createOrder(app.db, app.payments, request.body, buyer, request.ip));
    },
  );

  app.get(
    '/shop/orders',
    {
      config: { access: access.account },
      schema: {
        tags,
        summary: 'The orders the signed-in person placed',
        response: { 200: orderListSchema, ...errorResponses },
      },
    },
    async (request) => listMyOrders(app.db, signedIn(request).user.id),
  );

  app.post(
    '/shop/orders/:id/cancel',
    {
      // No IdKind names an order: the registry-driven tests fill it with an id naming nothing (404).
      config: { access: access.account, ids: { id: 'checkoutId' } },
      schema: {
        tags,
        summary:
          'Cancel one of my orders awaiting payment: its units go back on sale now, and it can no longer be paid',
        params: z.object({ id: idSchema }),
        response: { 200: orderViewSchema, ...errorResponses },
      },
    },
    async (request) =>
      cancelMyOrder(
        app.db,
        app.payments,
        { userId: signedIn(request).user.id, ip: request.ip },
        request.params.id,
      ),
  );

  app.get(
    '/system/orders',
    {
      config: { access: access.platform },
      schema: {
        tags,
        summary: 'Every order, for platform staff',
        querystring: staffOrdersQuerySchema,
        response: { 200: staffOrdersPageSchema, ...errorResponses },
      },
    },
    async (request) => listOrdersForStaff(app.db, request.query),
  );

  app.get(
    '/system/inventory',
    {
      config: { access: access.platform },
      schema: {
        tags,
        summary: 'Stock of every product',
        response: { 200: inventoryListSchema, ...errorResponses },
      },
    },
    async () => listInventory(app.db),
  );

  app.post(
    '/system/inventory/:id',
    {
      config: {
        access: access.platform,
        example: { body: { onHand: 10, reason: 'Count' } },
        ids: { id: 'productId' },
      },
      schema: {
        tags,
        summary: "Set a product's units on hand (a delivery, a count)",
        params: productParamsSchema,
        body: stockAdjustmentSchema,
        response: { 200: inventoryItemSchema, ...errorResponses },
      },
    },
    async (request) =>
      adjustStock(
        app.db,
        { userId: signedIn(request).user.id, ip: request.ip },
        request.params.id,
        request.body,
      ),
  );
};

import type { FastifyInstance } from 'fastify';
import { markOrderPaid, releaseOrder } from './shop.service';

/**
 * The shop settles its orders through the handler payments calls for order checkouts (payments
 * imports nothing of the shop): paid, the order ships; ended unpaid, its stock goes back on the
 * shelf. Registered after registerPayments.
 */
export function registerShop(app: FastifyInstance): void {
  app.payments.handlers.handleCheckouts('order', {
    paid: markOrderPaid,
    ended: async (trx, checkout, status) => {
      if (checkout.order_id) await releaseOrder(trx, checkout.order_id, status);
    },
  });
}

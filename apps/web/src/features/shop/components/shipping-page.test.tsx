import { MAX_LINE_QUANTITY, type Quote } from '@latchkey/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { saveCheckoutState } from '@/lib/checkout-state';
import { storage } from '@/lib/storage';
import { apiError, json, type RecordedCall } from '@/testing/fetch-mock';
import { renderApp } from '@/testing/render-app';

/** POST shop/quote for smart locks at €249.00, with Germany's standard delivery. */
function quote(call: RecordedCall) {
  const { items, shippingOption } = call.body as {
    items: { productId: string; quantity: number }[];
    shippingOption?: string;
  };
  const lines = items.map((item) => ({
    productId: item.productId,
    sku: 'LK-SL1',
    name: 'Latchkey Smart Lock',
    image: '/shop/smart-lock.svg',
    unitPrice: 24900,
    quantity: item.quantity,
    lineTotal: 24900 * item.quantity,
    available: 40,
  }));
  const subtotal = lines.reduce((sum, line) => sum + line.lineTotal, 0);
  const shipping = shippingOption ? 490 : null;
  const answer: Quote = {
    lines,
    unknownProductIds: [],
    subtotal,
    currency: 'EUR',
    shippingOptions: [
      { id: 'standard', name: 'Standard delivery', price: 490, currency: 'EUR', minDays: 2, maxDays: 4 },
    ],
    shipping,
    total: subtotal + (shipping ?? 0),
  };
  return json(answer);
}

describe('ShippingPage', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    saveCheckoutState({
      email: 'pat@example.com',
      address: {
        name: 'Pat Buyer',
        company: '',
        line1: 'Invalidenstraße 1',
        line2: '',
        postalCode: '10115',
        city: 'Berlin',
        region: '',
        country: 'DE',
        phone: '',
      },
    });
  });

  it('says why an order was refused when unpaid checkouts already hold what one buyer may hold', async () => {
    // A cart from before the limit asks for no more of one product than one order may hold.
    storage.setCart({ 'smart-lock': 25 });
    const { calls } = renderApp('/pickShipping', {
      'POST shop/quote': quote,
      'POST stripe/order': () =>
        apiError(
          409,
          'hold_limit',
          '3 unpaid checkouts are already open for this buyer: pay or cancel one first',
          [{ path: 'body', message: '3 unpaid checkouts are already open for this buyer' }],
        ),
    });
    const pay = await screen.findByRole('button', { name: /^Pay €/ });
    await userEvent.click(pay);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your unpaid checkouts hold enough already');
    expect(alert).toHaveTextContent('3 unpaid checkouts are already open for this buyer');
    expect(alert).toHaveTextContent('ends by itself after a few minutes');
    const order = calls.find((call) => call.path === 'stripe/order');
    expect(order?.body).toMatchObject({ items: [{ productId: 'smart-lock', quantity: MAX_LINE_QUANTITY }] });
  });
});

import { MAX_LINE_QUANTITY, type Quote } from '@latchkey/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { readOrderCheckout, saveCheckoutState } from '@/lib/checkout-state';
import { storage } from '@/lib/storage';
import { apiError, heldBack, json, type RecordedCall } from '@/testing/fetch-mock';
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

  it('asks before paying again for what this email just paid, and orders again only when told', async () => {
    // Issue 19, item 2: the server refuses exactly the items this email paid for (409 already_paid).
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    storage.setCart({ 'smart-lock': 2 });
    const refusal =
      'These items are paid for already: order LK-AB12CD34. Empty the cart, or order them again if you mean to buy them twice.';
    const { calls } = renderApp('/pickShipping', {
      'POST shop/quote': quote,
      'POST stripe/order': (call) =>
        (call.body as { again?: boolean }).again
          ? json(
              { orderRef: 'LK-ZZ99YY88', checkoutId: 'co-2', token: 't-2', url: 'http://pay.invalid/cs_2' },
              201,
            )
          : apiError(409, 'already_paid', refusal),
    });
    await userEvent.click(await screen.findByRole('button', { name: /^Pay €/ }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You paid for these items already');
    expect(alert).toHaveTextContent(refusal);
    expect(assign).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Order them again' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('http://pay.invalid/cs_2'));
    const orders = calls.filter((call) => call.path === 'stripe/order');
    expect(orders.map((call) => (call.body as { again?: boolean }).again)).toEqual([undefined, true]);
    // The order sent to the payment page is remembered with its items: once paid, they leave the cart.
    expect(readOrderCheckout()).toEqual({ checkoutId: 'co-2', token: 't-2', items: { 'smart-lock': 2 } });
    vi.unstubAllGlobals();
  });

  it('empties the cart when told to, instead of paying twice', async () => {
    storage.setCart({ 'smart-lock': 2 });
    renderApp('/pickShipping', {
      'POST shop/quote': quote,
      'POST stripe/order': () =>
        apiError(409, 'already_paid', 'These items are paid for already: order LK-AB12CD34.'),
    });
    await userEvent.click(await screen.findByRole('button', { name: /^Pay €/ }));
    await userEvent.click(await screen.findByRole('button', { name: 'Empty the cart' }));
    expect(storage.getCart()).toEqual({});
    expect(await screen.findByText('Your cart is empty')).toBeInTheDocument();
  });

  it('shows no total and takes no payment while the chosen delivery is being priced', async () => {
    storage.setCart({ 'smart-lock': 2 });
    const express = heldBack();
    const { calls } = renderApp('/pickShipping', {
      'POST shop/quote': async (call) => {
        const { shippingOption } = call.body as { shippingOption?: string };
        if (shippingOption === 'express') await express.released;
        const answer = (await quote(call).json()) as Quote;
        const options: Quote['shippingOptions'] = [
          ...answer.shippingOptions,
          { id: 'express', name: 'Express delivery', price: 1290, currency: 'EUR', minDays: 1, maxDays: 1 },
        ];
        const shipping = options.find((option) => option.id === shippingOption)?.price ?? null;
        return json({
          ...answer,
          shippingOptions: options,
          shipping,
          total: answer.subtotal + (shipping ?? 0),
        });
      },
    });
    expect(await screen.findByRole('button', { name: 'Pay €502.90' })).toBeEnabled();

    await userEvent.click(screen.getByRole('radio', { name: /Express delivery/ }));
    // The standard delivery's total is gone, not offered as the price of express.
    const pay = screen.getByRole('button', { name: 'Pay' });
    expect(pay).toBeDisabled();
    expect(screen.queryByText('€502.90')).not.toBeInTheDocument();

    express.release();
    expect(await screen.findByRole('button', { name: 'Pay €510.90' })).toBeEnabled();
    expect(calls.some((call) => call.path === 'stripe/order')).toBe(false);
  });
});

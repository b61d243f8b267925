import type { Quote } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { readOrderCheckout, rememberOrderCheckout } from '@/lib/checkout-state';
import { storage } from '@/lib/storage';
import { json, type RecordedCall } from '@/testing/fetch-mock';
import { renderApp } from '@/testing/render-app';

const PRICES: Record<string, { name: string; price: number; available: number }> = {
  'smart-lock': { name: 'Latchkey Smart Lock', price: 24900, available: 40 },
  'code-lock': { name: 'Keypad Code Lock', price: 15900, available: 1 },
};

/** POST shop/quote as the server answers it: its own prices, whatever the cart says. */
function quote(call: RecordedCall) {
  const { items } = call.body as { items: { productId: string; quantity: number }[] };
  const lines = items
    .filter((item) => PRICES[item.productId])
    .map((item) => {
      const product = PRICES[item.productId]!;
      return {
        productId: item.productId,
        sku: item.productId.toUpperCase(),
        name: product.name,
        image: `/shop/${item.productId}.svg`,
        unitPrice: product.price,
        quantity: item.quantity,
        lineTotal: product.price * item.quantity,
        available: product.available,
      };
    });
  const subtotal = lines.reduce((sum, line) => sum + line.lineTotal, 0);
  const answer: Quote = {
    lines,
    unknownProductIds: items.filter((item) => !PRICES[item.productId]).map((item) => item.productId),
    subtotal,
    currency: 'EUR',
    shippingOptions: [],
    shipping: null,
    total: subtotal,
  };
  return json(answer);
}

describe('CartPage', () => {
  beforeEach(() => localStorage.clear());

  it("shows the cart at the server's prices, and changes go to local storage under `cart`", async () => {
    storage.setCart({ 'smart-lock': 2 });
    const { calls } = renderApp('/cart', { 'POST shop/quote': quote });
    const items = await screen.findByRole('list', { name: 'Items in the cart' });
    expect(within(items).getByText('Latchkey Smart Lock')).toBeInTheDocument();
    expect(screen.getByTestId('order-total')).toHaveTextContent('€498.00');
    expect(calls.find((c) => c.path === 'shop/quote')?.body).toEqual({
      items: [{ productId: 'smart-lock', quantity: 2 }],
    });

    const quantity = screen.getByRole('textbox', { name: 'Quantity of Latchkey Smart Lock' });
    await userEvent.clear(quantity);
    await userEvent.type(quantity, '3');
    await waitFor(() => expect(JSON.parse(localStorage.getItem('cart')!)).toEqual({ 'smart-lock': 3 }));
    await waitFor(() => expect(screen.getByTestId('order-total')).toHaveTextContent('€747.00'));
    expect(screen.getByRole('link', { name: 'Check out' })).toHaveAttribute('href', '/address');

    await userEvent.click(screen.getByRole('button', { name: 'Remove Latchkey Smart Lock' }));
    expect(await screen.findByRole('heading', { name: 'Your cart is empty' })).toBeInTheDocument();
    expect(localStorage.getItem('cart')).toBe('{}');
  });

  it('drops items no longer on sale and blocks checking out more than is in stock', async () => {
    storage.setCart({ 'code-lock': 2, 'retired-thing': 1 });
    renderApp('/cart', { 'POST shop/quote': quote });
    expect(await screen.findByText('Only 1 left: lower the quantity.')).toBeInTheDocument();
    await waitFor(() => expect(JSON.parse(localStorage.getItem('cart')!)).toEqual({ 'code-lock': 2 }));
    expect(screen.getByRole('link', { name: 'Check out' })).toHaveAttribute('data-disabled', 'true');
  });

  it('reads a corrupt cart as empty', async () => {
    localStorage.setItem('cart', '{"smart-lock": "lots"');
    renderApp('/cart', { 'POST shop/quote': quote });
    expect(await screen.findByRole('heading', { name: 'Your cart is empty' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the shop' })).toHaveAttribute('href', '/product');
  });

  // Issue 19, item 2: the success page opened in another tab, or never; the cart still held the paid
  // items. The order sent to the payment page is remembered, and the cart asks what became of it.
  const checkout = (status: string) => () =>
    json({
      _id: 'co-1',
      kind: 'order',
      status,
      amountTotal: 49800,
      currency: 'EUR',
      plan: null,
      months: null,
      orderRef: 'LK-AB12CD34',
      createdAt: '2026-11-27T07:00:00.000Z',
      completedAt: status === 'complete' ? '2026-11-27T07:01:00.000Z' : null,
    });

  it('takes the items of a paid order out of the cart, keeping what was added since, and says why', async () => {
    storage.setCart({ 'smart-lock': 3, 'code-lock': 1 });
    rememberOrderCheckout({ checkoutId: 'co-1', token: 'tok', items: { 'smart-lock': 2 } });
    const { calls } = renderApp('/cart', {
      'POST shop/quote': quote,
      'GET payments/checkout/co-1': checkout('complete'),
    });
    await waitFor(() => expect(storage.getCart()).toEqual({ 'smart-lock': 1, 'code-lock': 1 }));
    expect(await screen.findByText('Order LK-AB12CD34 is paid')).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'payments/checkout/co-1')?.url).toContain('token=tok');
    expect(readOrderCheckout()).toBeNull();
  });

  it('empties a cart that held only the paid items', async () => {
    storage.setCart({ 'smart-lock': 2 });
    rememberOrderCheckout({ checkoutId: 'co-1', token: 'tok', items: { 'smart-lock': 2 } });
    renderApp('/cart', { 'POST shop/quote': quote, 'GET payments/checkout/co-1': checkout('complete') });
    expect(await screen.findByRole('heading', { name: 'Your cart is empty' })).toBeInTheDocument();
    expect(screen.getByText('Order LK-AB12CD34 is paid')).toBeInTheDocument();
  });

  it('keeps the cart when the order ended unpaid, and forgets the order', async () => {
    storage.setCart({ 'smart-lock': 2 });
    rememberOrderCheckout({ checkoutId: 'co-1', token: 'tok', items: { 'smart-lock': 2 } });
    renderApp('/cart', { 'POST shop/quote': quote, 'GET payments/checkout/co-1': checkout('expired') });
    await waitFor(() => expect(readOrderCheckout()).toBeNull());
    expect(storage.getCart()).toEqual({ 'smart-lock': 2 });
    expect(await screen.findByRole('list', { name: 'Items in the cart' })).toBeInTheDocument();
    expect(screen.queryByText(/is paid/)).not.toBeInTheDocument();
  });
});

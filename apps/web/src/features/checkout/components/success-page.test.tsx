import type { CheckoutView } from '@latchkey/shared';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { renderApp } from '@/testing/render-app';

const view = (overrides: Partial<CheckoutView>): CheckoutView => ({
  _id: 'co-1',
  kind: 'order',
  status: 'open',
  amountTotal: 25390,
  currency: 'EUR',
  plan: null,
  months: null,
  orderRef: 'LK-ABCD2345',
  createdAt: '2026-11-25T10:00:00.000Z',
  completedAt: null,
  ...overrides,
});

describe('SuccessPage', () => {
  beforeEach(() => localStorage.clear());

  it('waits for the provider to confirm the payment, then thanks the buyer and empties the cart', async () => {
    storage.setCart({ 'smart-lock': 1 });
    let answers = 0;
    const { calls } = renderApp('/success?checkout=co-1&token=tok_abcdefghijklmnopqrstuvwx', {
      'GET payments/checkout/co-1': () => json(view({ status: ++answers < 2 ? 'open' : 'complete' })),
    });
    expect(await screen.findByRole('status')).toHaveTextContent('Confirming your payment');
    expect(
      await screen.findByRole('heading', { name: 'Thank you for your order' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('LK-ABCD2345')).toBeInTheDocument();
    expect(calls[calls.length - 1]?.url).toContain('token=tok_abcdefghijklmnopqrstuvwx');
    await waitFor(() => expect(localStorage.getItem('cart')).toBe('{}'));
  });

  it('says so when the payment was not completed, and nothing was charged', async () => {
    renderApp('/success?checkout=co-1&token=tok_abcdefghijklmnopqrstuvwx', {
      'GET payments/checkout/co-1': () => json(view({ status: 'expired' })),
    });
    expect(
      await screen.findByRole('heading', { name: 'This payment was not completed' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Nothing was charged.')).toBeInTheDocument();
  });

  it('tells a portal admin which plan the portal is on after a subscription', async () => {
    renderApp('/success?checkout=co-1&token=tok_abcdefghijklmnopqrstuvwx', {
      'GET payments/checkout/co-1': () =>
        json(
          view({ kind: 'subscription', status: 'complete', plan: 'pro', amountTotal: 1200, orderRef: null }),
        ),
    });
    expect(await screen.findByRole('heading', { name: 'Your portal is on Pro' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the app' })).toHaveAttribute('href', '/app/upgrade');
  });
});

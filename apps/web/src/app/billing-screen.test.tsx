import type { OrderView } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { formatTime } from '@/lib/format';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

function order(overrides: Partial<OrderView> = {}): OrderView {
  return {
    _id: 'o1',
    ref: 'LK-AB12CD34',
    status: 'paid',
    email: 'sam@example.com',
    address: {
      name: 'Sam Resident',
      company: '',
      line1: 'Parkstraße 1',
      line2: '',
      postalCode: '10115',
      city: 'Berlin',
      region: '',
      country: 'DE',
      phone: '',
    },
    shipping: { id: 'standard', name: 'Standard', price: 490, currency: 'EUR', minDays: 2, maxDays: 4 },
    lines: [
      {
        productId: 'rfid-cards-10',
        sku: 'RFID-10',
        name: 'RFID cards (10)',
        image: '/shop/rfid.svg',
        unitPrice: 2900,
        quantity: 1,
        lineTotal: 2900,
      },
    ],
    subtotal: 2900,
    total: 3390,
    currency: 'EUR',
    portal: null,
    preRegisteredLocks: 0,
    createdAt: '2026-11-20T10:00:00.000Z',
    paidAt: '2026-11-20T10:05:00.000Z',
    holdUntil: null,
    ...overrides,
  };
}

describe('/app/billing (any signed-in user)', () => {
  beforeEach(() => {
    localStorage.clear();
    storage.setAuthToken(validToken());
  });

  it("shows a basic user what is theirs: paid orders as receipts, open ones apart, never the portal's bills", async () => {
    const { calls } = renderApp('/app/billing', {
      'GET auth': () => json(sessionFixture(['user'])),
      'GET shop/orders': () =>
        json([order(), order({ _id: 'o2', ref: 'LK-ZZ99YY88', status: 'pending', paidAt: null })]),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Billing' })).toBeInTheDocument();
    const receipts = await screen.findByRole('list', { name: 'Receipts' });
    expect(within(receipts).getByRole('heading', { name: 'Order LK-AB12CD34' })).toBeInTheDocument();
    expect(screen.getByText(/1 paid order, €33\.90 in all/)).toBeInTheDocument();
    const open = screen.getByRole('list', { name: 'Orders awaiting payment' });
    expect(within(open).getByRole('heading', { name: 'Order LK-ZZ99YY88' })).toBeInTheDocument();
    expect(calls.some((call) => call.path.startsWith('portal/billing'))).toBe(false);
  });

  it('lets the buyer cancel an order awaiting payment, saying until when its items are held', async () => {
    const pending = order({
      _id: 'o2',
      ref: 'LK-ZZ99YY88',
      status: 'pending',
      paidAt: null,
      holdUntil: '2026-11-20T10:30:00.000Z',
    });
    let answered = [pending];
    const { calls } = renderApp('/app/billing', {
      'GET auth': () => json(sessionFixture(['user'])),
      'GET shop/orders': () => json(answered),
      'POST shop/orders/o2/cancel': () => {
        answered = [{ ...pending, status: 'canceled', holdUntil: null }];
        return json(answered[0]);
      },
    });
    const open = await screen.findByRole('list', { name: 'Orders awaiting payment' });
    expect(within(open).getByText(/held for you until/)).toHaveTextContent(
      formatTime('2026-11-20T10:30:00.000Z'),
    );
    const user = setupUser();
    await user.click(within(open).getByRole('button', { name: 'Cancel order' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel order LK-ZZ99YY88?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByText('Order LK-ZZ99YY88 canceled. Nothing was charged.')).toBeInTheDocument();
    expect(
      calls.filter((call) => call.method === 'POST' && call.path === 'shop/orders/o2/cancel'),
    ).toHaveLength(1);
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Cancel order' })).not.toBeInTheDocument(),
    );
  });

  it("shows an admin the portal's billing", async () => {
    const { calls } = renderApp('/app/billing', {
      'GET auth': () => json(sessionFixture(['admin'])),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Billing' })).toBeInTheDocument();
    await screen.findByText(/What this portal pays/);
    expect(calls.some((call) => call.path === 'portal/billing')).toBe(true);
    expect(calls.some((call) => call.path === 'shop/orders')).toBe(false);
  });
});

import type { PortalSubscription } from '@latchkey/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

const free: PortalSubscription = {
  plan: 'free',
  standing: 'free',
  current: false,
  expireDate: null,
  stripe: { status: null },
  provider: 'sandbox',
  billing: 'none',
  cancelAtPeriodEnd: false,
  currentPeriodEnd: null,
  paymentFailedAt: null,
  lockCount: 3,
  canManageCard: false,
};

function setup(path: string, subscription: PortalSubscription, extra = {}) {
  storage.setAuthToken(validToken());
  return renderApp(path, {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/subscription': () => json(subscription),
    ...extra,
  });
}

describe('plans', () => {
  const assign = vi.fn();
  afterEach(() => assign.mockReset());

  it("prices each plan for the portal's locks and starts a checkout on the provider's page", async () => {
    vi.stubGlobal('location', { ...window.location, assign });
    const { calls } = setup('/app/gopro', free, {
      'POST portal/subscription/checkout': () =>
        json({ checkoutId: 'co-1', url: 'http://pay.test/cs_1' }, 201),
    });
    const pro = await screen.findByRole('region', { name: 'Pro' });
    expect(within(pro).getByText('€12.00 a month for your 3 locks')).toBeInTheDocument();
    await userEvent.click(within(pro).getByRole('button', { name: 'Choose Pro' }));
    expect(calls.find((c) => c.path === 'portal/subscription/checkout')?.body).toEqual({ plan: 'pro' });
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('http://pay.test/cs_1'));
    vi.unstubAllGlobals();
  });

  it('shows a running subscription with its renewal, and cancels it at the end of the period after asking', async () => {
    const running: PortalSubscription = {
      ...free,
      plan: 'pro',
      standing: 'active',
      current: true,
      stripe: { status: 'active' },
      billing: 'subscription',
      currentPeriodEnd: '2026-12-25T15:00:00.000Z',
      expireDate: '2026-12-28T00:00:00.000Z',
      canManageCard: true,
    };
    const { calls } = setup('/app/upgrade', running, {
      'DELETE stripe/cancel': () => json({ ...running, standing: 'canceling', cancelAtPeriodEnd: true }),
    });
    expect(await screen.findByText(/Renews on Dec 25, 2026/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change the card' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Switch to Business' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel at the end of the period' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the subscription?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel at period end' }));
    await vi.waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.path === 'stripe/cancel')).toBe(true),
    );
  });

  it('lets a lapsed portal renew its plan or move to Free after asking', async () => {
    const lapsed: PortalSubscription = {
      ...free,
      plan: 'pro',
      standing: 'lapsed',
      stripe: { status: 'canceled' },
    };
    const { calls } = setup('/app/upgrade', lapsed, {
      'POST portal/subscription/free': () => json({ ...free }),
    });
    expect(await screen.findByRole('button', { name: 'Renew Pro' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Move to Free' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move to the Free plan?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move to Free' }));
    await vi.waitFor(() => expect(calls.some((c) => c.path === 'portal/subscription/free')).toBe(true));
  });

  it('prices a prepaid period (upgradeLegacy) and refuses it while a subscription runs', async () => {
    setup('/app/upgradeLegacy', free);
    expect(await screen.findByText(/3 locks × 12 months of Pro/)).toHaveTextContent('€144.00');
    await userEvent.click(screen.getByRole('radio', { name: /Business/ }));
    expect(screen.getByRole('button', { name: 'Pay €252.00 by card' })).toBeInTheDocument();
  });
});

import type { PortalSubscription } from '@latchkey/shared';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { portalFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

const subscription = (overrides: Partial<PortalSubscription>): PortalSubscription => ({
  plan: 'pro',
  standing: 'active',
  current: true,
  expireDate: '2026-12-04T00:00:00.000Z',
  stripe: { status: 'active' },
  provider: 'sandbox',
  billing: 'subscription',
  cancelAtPeriodEnd: false,
  currentPeriodEnd: '2026-12-01T00:00:00.000Z',
  paymentFailedAt: null,
  lockCount: 3,
  canManageCard: true,
  ...overrides,
});

function setup(
  portal: Parameters<typeof portalFixture>[0],
  answer: PortalSubscription,
  roles: ('admin' | 'user')[] = ['admin'],
) {
  storage.setAuthToken(validToken());
  return renderApp('/app/settings', {
    'GET auth': () => json(sessionFixture(roles, { portal: portalFixture(portal) })),
    'GET portal/subscription': () => json(answer),
  });
}

describe('PaymentBanner', () => {
  it('tells admins of a lapsed portal that it is not paid, with the way to renew', async () => {
    setup(
      { current: false, stripe: { status: 'canceled' }, expireDate: '2026-11-01T00:00:00.000Z' },
      subscription({ standing: 'lapsed', current: false, stripe: { status: 'canceled' } }),
    );
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('The Pro plan of this portal is not paid');
    expect(banner).toHaveTextContent('cannot add locks or people');
    expect(screen.getByRole('link', { name: 'Renew the plan' })).toHaveAttribute('href', '/app/upgrade');
  });

  it('tells them of a failing payment while the portal is still paid up', async () => {
    setup(
      { current: true, stripe: { status: 'past_due' } },
      subscription({ standing: 'past_due', stripe: { status: 'past_due' } }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('A payment failed');
    expect(screen.getByRole('link', { name: 'Change the card' })).toHaveAttribute('href', '/app/upgrade');
  });

  it('asks nothing for a portal in good standing, nor for a basic user', async () => {
    const { calls } = setup({ current: true, stripe: { status: 'active' } }, subscription({}));
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'portal/subscription')).toBe(false);
    expect(screen.queryByText(/not paid|payment failed/i)).not.toBeInTheDocument();
  });

  it('shows nothing when the portal simply went back to the free plan', async () => {
    setup(
      { current: false, stripe: { status: 'canceled' }, expireDate: '2026-11-01T00:00:00.000Z' },
      subscription({ plan: 'free', standing: 'free', current: false }),
    );
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/not paid/)).not.toBeInTheDocument();
  });
});

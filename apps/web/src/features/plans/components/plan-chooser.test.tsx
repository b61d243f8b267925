import type { PortalSubscription } from '@latchkey/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

// Issue 19, item 9: the plans sold API access, reports and priority support, which nothing in the
// product gave or withheld. Each card lists what the server holds to: the lock allowance, and
// rentals on Business (the only plan feature, refused elsewhere with 402).
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
  lockCount: 2,
  canManageCard: false,
};

describe('the plan cards', () => {
  it('list only what the server checks: the locks allowed, and rentals on Business', async () => {
    storage.setAuthToken(validToken());
    renderApp('/app/gopro', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/subscription': () => json(free),
    });
    const items = async (plan: string) =>
      within(await screen.findByRole('region', { name: new RegExp(`^${plan}`) }))
        .getAllByRole('listitem')
        .map((item) => item.textContent);
    expect(await items('Free')).toEqual(['Locks, people, codes, cards and schedules']);
    expect(await items('Pro')).toEqual(['Locks, people, codes, cards and schedules', 'Any number of locks']);
    expect(await items('Business')).toEqual([
      'Locks, people, codes, cards and schedules',
      'Any number of locks',
      'Rentals and guest stays',
    ]);
    expect(
      within(screen.getByRole('region', { name: /^Free/ })).getByText('Up to 2 locks'),
    ).toBeInTheDocument();
    // No card sells what the server does not check (the menu's own "Reports" entry is no plan feature).
    for (const plan of ['Free', 'Pro', 'Business']) {
      expect(
        within(screen.getByRole('region', { name: new RegExp(`^${plan}`) })).queryByText(
          /API access|Reports|Priority support/,
        ),
      ).not.toBeInTheDocument();
    }
  }, 20_000);
});

describe('the Free card', () => {
  const show = (subscription: PortalSubscription) => {
    storage.setAuthToken(validToken());
    renderApp('/app/gopro', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/subscription': () => json(subscription),
    });
    return screen.findByRole('region', { name: /^Free/ });
  };

  it('says it is the current plan on Free', async () => {
    const card = await show(free);
    expect(within(card).getByRole('button', { name: 'Current plan' })).toBeDisabled();
  });

  it('says why it is not offered while a prepaid period runs, and what the portal holds past Free', async () => {
    const card = await show({
      ...free,
      plan: 'pro',
      standing: 'active',
      current: true,
      expireDate: '2027-03-01T12:00:00.000Z',
      billing: 'prepaid',
      lockCount: 5,
    });
    expect(card).toHaveTextContent(
      /Your prepaid Pro period ends on Mar 1, 2027; unrenewed, the portal can then move to Free\. Free holds up to 2 locks; this portal has 5/,
    );
    expect(within(card).queryByRole('button')).not.toBeInTheDocument();
  });
});

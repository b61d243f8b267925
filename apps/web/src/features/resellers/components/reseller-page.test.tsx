import type { BillingSummary, ResellerAccount } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const account: ResellerAccount = {
  reseller: {
    _id: 'r1',
    name: 'Keystone Integrators',
    country: 'DE',
    vatNumber: null,
    linkCode: 'ABCDEF23',
    brand: null,
    createdAt: '2025-01-01T00:00:00.000Z',
  },
  customers: [
    {
      portalId: 'p1',
      name: 'Lakeside Clinic',
      ownerEmail: 'clinic@example.com',
      plan: 'pro',
      allowActing: true,
      linkedAt: '2025-01-01T00:00:00.000Z',
      current: true,
      lockCount: 3,
    },
    {
      portalId: 'p2',
      name: 'Harbor Offices',
      ownerEmail: 'office@example.com',
      plan: 'business',
      allowActing: false,
      linkedAt: '2025-01-01T00:00:00.000Z',
      current: false,
      lockCount: 1,
    },
  ],
};

const row = (portalId: string, portalName: string, billed: number, wholesale: number) => ({
  portalId,
  portalName,
  invoiceNumber: null,
  billedNetMinor: billed,
  billedTotalMinor: billed,
  wholesaleMinor: wholesale,
  marginMinor: billed - wholesale,
});

function summary(year: number, month: number, status: 'open' | 'closed'): BillingSummary {
  const customers = [row('p1', 'Lakeside Clinic', 1200, 840), row('p2', 'Harbor Offices', 700, 490)];
  return {
    year,
    month,
    status,
    currency: 'EUR',
    firstYear: 2025,
    firstMonth: 1,
    customers,
    totals: { billedNetMinor: 1900, billedTotalMinor: 1900, wholesaleMinor: 1330, marginMinor: 570 },
  };
}

function setup(routes: Record<string, MockHandler>) {
  storage.setAuthToken(validToken());
  return renderApp('/app/reseller', { 'GET auth': () => json(sessionFixture(['admin'])), ...routes });
}

describe('ResellerPage', () => {
  it('offers to open a reseller account to someone without one', async () => {
    setup({
      'GET reseller': () => apiError(404, 'not_found', 'You have no reseller account; open one first'),
    });
    const form = await screen.findByRole('form', { name: 'Open a reseller account' });
    expect(within(form).getByRole('textbox', { name: 'Company name' })).toBeInTheDocument();
  });

  it('opens the account with POST reseller/new (POST reseller lists the customers)', async () => {
    const user = setupUser();
    const { calls } = setup({
      'GET reseller': () => apiError(404, 'not_found', 'You have no reseller account; open one first'),
      'POST reseller/new': () => json(account.reseller, 201),
    });
    const form = await screen.findByRole('form', { name: 'Open a reseller account' });
    // Pasted rather than typed: the form is controlled, and each keystroke renders it again.
    await user.click(within(form).getByRole('textbox', { name: 'Company name' }));
    await user.paste('Keystone Integrators');
    await user.click(within(form).getByRole('combobox', { name: 'Country' }));
    await user.click(await screen.findByRole('option', { name: 'France' }));
    await user.click(within(form).getByRole('button', { name: 'Open reseller account' }));
    await waitFor(() => expect(calls.some((c) => c.path === 'reseller/new')).toBe(true));
    expect(calls.find((c) => c.path === 'reseller/new')).toMatchObject({
      method: 'POST',
      body: { companyName: 'Keystone Integrators', country: 'FR', vatNumber: null },
    });
  });

  it('shows the code, each customer billed, wholesale and margin, and steps back a month', async () => {
    const { calls } = setup({
      'GET reseller': () => json(account),
      'GET reseller/billingSummary': () => json(summary(2025, 3, 'open')),
      'GET reseller/billingSummary/2025/2': () => json(summary(2025, 2, 'closed')),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Keystone Integrators' }),
    ).toBeInTheDocument();
    expect(screen.getByText('ABCD-EF23')).toBeInTheDocument();
    const clinic = await screen.findByRole('row', { name: /Lakeside Clinic/ });
    expect(clinic).toHaveTextContent('€12.00');
    expect(clinic).toHaveTextContent('€8.40');
    expect(clinic).toHaveTextContent('€3.60');
    expect(screen.getByRole('row', { name: /Total/ })).toHaveTextContent('€5.70');

    const customers = screen.getByRole('list', { name: 'Customers' });
    const lakeside = within(customers).getByRole('listitem', { name: 'Lakeside Clinic' });
    expect(within(lakeside).getByRole('button', { name: /^Act in this portal/ })).toBeInTheDocument();
    expect(lakeside).toHaveTextContent('Paid up');
    expect(lakeside).toHaveTextContent('3 locks');
    expect(lakeside).toHaveTextContent('This month so far: €12.00');
    const harbor = within(customers).getByRole('listitem', { name: 'Harbor Offices' });
    expect(within(harbor).queryByRole('button')).toBeNull();
    expect(harbor).toHaveTextContent('Billing only');
    expect(harbor).toHaveTextContent('Not paid');
    expect(harbor).toHaveTextContent('1 lock ·');

    expect(screen.getByRole('button', { name: 'Next month' })).toBeDisabled();
    await setupUser().click(screen.getByRole('button', { name: 'Previous month' }));
    expect(
      await screen.findByRole('heading', { name: 'Billing summary: February 2025' }),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'reseller/billingSummary/2025/2')).toBe(true);
  });
});

describe('the reseller menu entry', () => {
  const nav = () => screen.findByRole('navigation', { name: 'Main navigation' });

  it('is listed for a person with a reseller account', async () => {
    storage.setAuthToken(validToken());
    renderApp('/app/about', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET reseller/mine': () => json({ reseller: { _id: 'r1', name: 'Keystone Integrators' } }),
    });
    expect(await within(await nav()).findByRole('link', { name: 'Reseller' })).toHaveAttribute(
      'href',
      '/app/reseller',
    );
  });

  it('is not listed for someone without one', async () => {
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/app/about', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET reseller/mine': () => json({ reseller: null }),
    });
    const links = await nav();
    await within(links).findByRole('link', { name: 'Change log' });
    await waitFor(() => expect(calls.some((c) => c.path === 'reseller/mine')).toBe(true));
    expect(within(links).queryByRole('link', { name: 'Reseller' })).toBeNull();
  });
});

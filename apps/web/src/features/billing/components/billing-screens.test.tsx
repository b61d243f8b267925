import type { Bill, BillingOverview } from '@latchkey/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const party = { addressLines: [], country: null, vatNumber: null, email: null };

const september: Bill = {
  _id: 'bill-1',
  portalId: 'portal-1',
  portalName: 'Sunny Flats',
  year: 2025,
  month: 9,
  status: 'closed',
  invoiceNumber: 'LK-2025-000007',
  issuedAt: '2025-10-01T00:05:00.000Z',
  periodStart: '2025-09-01',
  periodEnd: '2025-09-30',
  asOf: '2025-10-01T00:00:00.000Z',
  projected: false,
  currency: 'EUR',
  lines: [
    {
      plan: 'pro',
      planName: 'Pro',
      unitPriceMinor: 400,
      daysInMonth: 30,
      planDays: 30,
      lockDays: 130,
      includedLockDays: 0,
      billableLockDays: 130,
      amountMinor: 1733,
      explanation: '130 lock-days over 30 days on Pro; 130 × €4.00 per lock-month ÷ 30 days = €17.33',
      locks: [
        {
          deviceId: 'd1',
          name: 'Front door',
          days: 30,
          firstDay: '2025-09-01',
          lastDay: '2025-09-30',
          deleted: false,
        },
        {
          deviceId: 'd2',
          name: 'Flat 1',
          days: 20,
          firstDay: '2025-09-11',
          lastDay: '2025-09-30',
          deleted: true,
        },
      ],
    },
  ],
  netMinor: 1733,
  vat: { treatment: 'domestic', rateBp: 1900, note: 'VAT 19 % (DE).' },
  vatMinor: 329,
  totalMinor: 2062,
  seller: { ...party, name: 'Latchkey', country: 'DE' },
  buyer: { ...party, name: 'Sunny Flats GmbH', addressLines: ['Weg 1', '10115 Berlin'], country: 'DE' },
};

const overview: BillingOverview = {
  plan: 'pro',
  currency: 'EUR',
  profile: null,
  reseller: null,
  isOwner: true,
  current: {
    year: 2025,
    month: 10,
    netMinor: 400,
    totalMinor: 476,
    projectedNetMinor: 1200,
    projectedTotalMinor: 1428,
  },
  pastBills: [],
};

function setup(path: string, routes: Record<string, MockHandler>) {
  storage.setAuthToken(validToken());
  return renderApp(path, { 'GET auth': () => json(sessionFixture(['admin'])), ...routes });
}

describe('MonthBillPage', () => {
  it('shows each line with how it was reached, its locks and days, and the totals', async () => {
    setup('/app/billing/2025/9', { 'GET portal/billing/2025/9': () => json(september) });
    expect(await screen.findByRole('heading', { level: 1, name: 'September 2025' })).toBeInTheDocument();
    expect(screen.getByText(/Invoice LK-2025-000007, issued/)).toBeInTheDocument();
    const lines = screen.getByRole('list', { name: 'Bill lines' });
    expect(within(lines).getByText('Pro plan, 30 of 30 days')).toBeInTheDocument();
    expect(within(lines).getByText(september.lines[0]!.explanation)).toBeInTheDocument();

    await setupUser().click(within(lines).getByRole('button', { name: 'Show the 2 locks and their days' }));
    const flat = await within(lines).findByRole('row', { name: /Flat 1/ });
    expect(within(flat).getByText('20')).toBeInTheDocument();
    expect(within(flat).getByText('Deleted since')).toBeInTheDocument();

    const totals = screen.getByRole('table', { name: 'Totals' });
    expect(within(totals).getByRole('row', { name: /Net/ })).toHaveTextContent('€17.33');
    expect(within(totals).getByRole('row', { name: /VAT 19 %/ })).toHaveTextContent('€3.29');
    expect(within(totals).getByRole('row', { name: /Total/ })).toHaveTextContent('€20.62');
    expect(screen.getByRole('link', { name: 'Printable invoice' })).toHaveAttribute(
      'href',
      '/print/bill/bill-1',
    );
  });

  it('says when a month has no bill', async () => {
    setup('/app/billing/2020/1', {
      'GET portal/billing/2020/1': () => apiError(404, 'not_found', 'Bill not found'),
    });
    expect(await screen.findByRole('heading', { name: 'No bill for January 2020' })).toBeInTheDocument();
  });

  it('does not ask the server for a path that is not a month', async () => {
    const { calls } = setup('/app/billing/2025/13', {});
    expect(await screen.findByRole('heading', { name: /This bill doesn.t exist/ })).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('portal/billing'))).toBe(false);
  });
});

describe('PrintBillPage', () => {
  it('lays the invoice out as a document with seller, buyer, lines, locks and totals', async () => {
    setup('/print/bill/bill-1', { 'GET portal/billing/bill/bill-1': () => json(september) });
    const invoice = await screen.findByRole('article', { name: 'Invoice LK-2025-000007' });
    expect(within(invoice).getByRole('heading', { level: 1, name: 'Invoice' })).toBeInTheDocument();
    expect(within(invoice).getByText('Sunny Flats GmbH')).toBeInTheDocument();
    expect(within(invoice).getByRole('list', { name: 'Locks on the Pro plan' })).toHaveTextContent(
      'Flat 1 (deleted since): 20 days, Sep 11, 2025 – Sep 30, 2025',
    );
    // The PDF writes the same dates (billing.test.ts on the server): issued 00:05 UTC on Oct 1
    // stays Oct 1 whatever the portal's or the browser's zone, as the period it closes is UTC.
    expect(within(invoice).getByText('Sep 1, 2025 – Sep 30, 2025 (September 2025)')).toBeInTheDocument();
    expect(within(invoice).getByText('Oct 1, 2025')).toBeInTheDocument();
    expect(within(invoice).getByRole('table', { name: 'Totals' })).toHaveTextContent('€20.62');
    expect(screen.getByRole('button', { name: 'Download PDF' })).toBeInTheDocument();
  });
});

describe('BillingPage', () => {
  it('shows the plan, this month so far and projected, an empty past-bills list and the reseller link form', async () => {
    setup('/app/billing', {
      'GET portal/billing': () => json(overview),
      'GET portal/billing/pastBills': () => json({ items: [] }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Billing' })).toBeInTheDocument();
    expect(await screen.findByText('€4.76')).toBeInTheDocument();
    expect(screen.getByText('€14.28')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No past bills yet' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Link a reseller' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Billing details' })).toBeInTheDocument();
  });

  it('checks the VAT number against the country before sending', async () => {
    const { calls } = setup('/app/billing', {
      'GET portal/billing': () => json(overview),
      'GET portal/billing/pastBills': () => json({ items: [] }),
    });
    const form = await screen.findByRole('form', { name: 'Billing details' });
    const user = setupUser();
    await user.type(within(form).getByRole('textbox', { name: 'Address' }), 'Rue 1');
    await user.type(within(form).getByRole('textbox', { name: 'City' }), 'Paris');
    await user.click(within(form).getByRole('combobox', { name: 'Country' }));
    await user.click(await screen.findByRole('option', { name: 'France' }));
    await user.type(within(form).getByRole('textbox', { name: 'VAT number' }), 'DE123456789');
    await user.click(within(form).getByRole('button', { name: 'Save billing details' }));
    expect(
      await within(form).findByText(
        'VAT number must be a VAT number of the billing country, starting with FR',
      ),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});

import type { BillingOverview } from '@latchkey/shared';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { heldAnswer, json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const overview: BillingOverview = {
  plan: 'pro',
  currency: 'EUR',
  profile: {
    name: 'Sunny Flats GmbH',
    addressLine1: 'Invalidenstraße 1',
    addressLine2: 'Hinterhaus',
    postalCode: '10115',
    city: 'Berlin',
    country: 'DE',
    vatNumber: null,
    email: 'billing@sunnyflats.example',
    updatedAt: '2025-10-01T00:00:00.000Z',
  },
  reseller: null,
  isOwner: true,
  current: {
    year: 2025,
    month: 10,
    netMinor: 0,
    totalMinor: 0,
    projectedNetMinor: 0,
    projectedTotalMinor: 0,
  },
  pastBills: [],
};

const field = (name: string) => screen.getByRole('textbox', { name: new RegExp(`^${name}`) });

describe('AddressPage', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
    storage.setCart({ 'product-1': 1 });
  });

  it("starts a portal admin's delivery address from the portal's billing details", async () => {
    storage.setAuthToken(validToken());
    renderApp('/address', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/billing': () => json(overview),
    });
    await waitFor(() => expect(field('Street and number')).toHaveValue('Invalidenstraße 1'));
    // The person receives it, for the company on the bills.
    expect(field('Full name')).toHaveValue('Ada Lovelace');
    expect(field('Company')).toHaveValue('Sunny Flats GmbH');
    expect(field('Address line 2')).toHaveValue('Hinterhaus');
    expect(field('Postal code')).toHaveValue('10115');
    expect(field('City')).toHaveValue('Berlin');
    expect(field('Email')).toHaveValue('billing@sunnyflats.example');
    expect(screen.getByRole('combobox', { name: /^Country/ })).toHaveValue('Germany');
  });

  it('keeps what the buyer entered earlier in this checkout over the billing details', async () => {
    sessionStorage.setItem(
      'latchkey.checkout',
      JSON.stringify({
        email: 'pat@example.com',
        address: {
          name: 'Pat Buyer',
          company: '',
          line1: 'Hauptstraße 5',
          line2: '',
          postalCode: '80331',
          city: 'München',
          region: '',
          country: 'DE',
          phone: '',
        },
      }),
    );
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/address', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/billing': () => json(overview),
    });
    expect(await screen.findByRole('heading', { name: 'Delivery address' })).toBeInTheDocument();
    expect(field('Street and number')).toHaveValue('Hauptstraße 5');
    expect(calls.some((call) => call.path === 'portal/billing')).toBe(false);
  });

  it('does not overwrite what the admin starts typing before the details arrive', async () => {
    storage.setAuthToken(validToken());
    const billing = heldAnswer(overview);
    renderApp('/address', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/billing': billing.handler,
    });
    const street = await screen.findByRole('textbox', { name: /^Street and number/ });
    await setupUser().type(street, 'Am Markt 3');
    billing.release();
    await waitFor(() => expect(street).toHaveValue('Am Markt 3'));
    expect(field('City')).toHaveValue('');
  });

  it('asks a basic user or a visitor for nothing it may not read', async () => {
    const { calls } = renderApp('/address');
    expect(await screen.findByRole('heading', { name: 'Delivery address' })).toBeInTheDocument();
    expect(field('Street and number')).toHaveValue('');
    expect(calls.some((call) => call.path === 'portal/billing')).toBe(false);
  });
});

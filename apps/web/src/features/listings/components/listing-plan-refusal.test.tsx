import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json } from '@/testing/fetch-mock';
import { deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

// Rentals are a Business feature (issue 19, item 9): the server refuses a listing to a portal whose
// plan lacks them (402 payment_required, naming the plan). The form says why, in place, with the
// way to the plans, and keeps what was typed.
const REFUSAL =
  'Rentals and guest stays are part of the Business plan; this portal is on Free. Choose Business (Upgrade) to use them.';

describe('creating a listing the plan does not allow', () => {
  it('shows the reason and a link to the plans, and keeps the form', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    storage.setAuthToken(validToken());
    renderApp('/app/listing/edit/new', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/devices': () => json({ items: [deviceFixture()], total: 1 }),
      'GET listingCategory': () => json([]),
      'POST listing/new': () => apiError(402, 'payment_required', REFUSAL),
    });
    const user = setupUser();
    const form = await screen.findByRole('form', { name: 'New listing' });
    await user.type(within(form).getByLabelText(/^Title/), 'Sea view flat');
    await user.click(within(form).getAllByLabelText(/^Locks/)[0]!);
    await user.click(await screen.findByRole('option', { name: /Front door/ }));
    await user.click(within(form).getByRole('button', { name: 'Create listing' }));

    const alert = await within(form).findByRole('alert');
    expect(alert).toHaveTextContent('Your plan does not include rentals');
    expect(alert).toHaveTextContent(REFUSAL);
    expect(within(alert).getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/app/upgrade');
    expect(within(form).getByLabelText(/^Title/)).toHaveValue('Sea view flat');
    // The listing form is large (a lock picker among its fields): typing into it takes a while
    // on a loaded machine.
  }, 40_000);
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiError, json } from '@/testing/fetch-mock';
import { openSealed, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

// `/reseller-signup` and `/signup` are one form (components/signup-form.tsx) with the reseller's
// company fields, call, messages and destination as props: this covers the reseller's side.

async function fillResellerSignup() {
  const user = setupUser();
  const form = await screen.findByRole('form', { name: 'Become a reseller' });
  // Pasted rather than typed: the form is controlled, and each keystroke renders it again.
  const fill = async (field: HTMLElement, text: string) => {
    await user.click(field);
    await user.paste(text);
  };
  await fill(within(form).getByLabelText('First name'), 'Ada');
  await fill(within(form).getByLabelText('Last name'), 'Lovelace');
  await fill(within(form).getByLabelText(/^Email/), 'ada@example.com');
  await fill(within(form).getByLabelText(/^Password/), 'analytical-engine');
  await fill(within(form).getByRole('textbox', { name: 'Company name' }), 'Keystone Integrators');
  await user.click(within(form).getByRole('combobox', { name: 'Country' }));
  await user.click(await screen.findByRole('option', { name: 'France' }));
  await user.click(within(form).getByRole('button', { name: 'Create reseller account' }));
}

describe('ResellerSignupPage', () => {
  it('shows 409 on the email field, saying to sign in and open a reseller account', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/reseller-signup', {
      'POST reseller/signup': () => apiError(409, 'conflict', 'Email already registered'),
    });
    await fillResellerSignup();
    const email = screen.getByLabelText(/^Email/);
    await waitFor(() =>
      expect(email).toHaveAccessibleDescription(
        /An account with this email already exists: sign in and open a reseller account/,
      ),
    );
    // Only /signup offers the "Sign in to that account instead" link.
    expect(screen.queryByText('Sign in to that account instead')).toBeNull();
  });

  it('creates the reseller (sealed, with the company) and goes to the reseller area', async () => {
    const { router, calls } = renderApp('/reseller-signup', {
      'POST reseller/signup': () => json({ token: validToken(), expiresAt: '2099-01-01T00:00:00.000Z' }, 201),
      'GET auth': () => json(sessionFixture(['admin'])),
    });
    await fillResellerSignup();
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/reseller'));
    expect(openSealed(calls.find((c) => c.path === 'reseller/signup')!.body)).toEqual({
      email: 'ada@example.com',
      password: 'analytical-engine',
      firstName: 'Ada',
      lastName: 'Lovelace',
      companyName: 'Keystone Integrators',
      country: 'FR',
      vatNumber: null,
    });
  });
});

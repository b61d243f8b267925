import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiError, json } from '@/testing/fetch-mock';
import { dashboardFixture, openSealed, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

async function fillSignup() {
  const user = setupUser();
  await user.type(await screen.findByLabelText('First name'), 'Ada');
  await user.type(screen.getByLabelText('Last name'), 'Lovelace');
  await user.type(screen.getByLabelText(/^Email/), 'ada@example.com');
  await user.type(screen.getByLabelText(/^Password/), 'analytical-engine');
  await user.type(screen.getByLabelText('Portal name'), 'Harbor View');
  await user.click(screen.getByRole('button', { name: 'Create account' }));
}

describe('SignupPage', () => {
  it('shows 409 as "An account with this email already exists" on the email field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/signup', { 'POST auth/create': () => apiError(409, 'conflict', 'Email already registered') });
    await fillSignup();
    const email = screen.getByLabelText(/^Email/);
    await waitFor(() =>
      expect(email).toHaveAccessibleDescription(/An account with this email already exists/),
    );
    expect(email).toHaveAttribute('aria-invalid', 'true');
  });

  it('puts the server’s 400 details on the fields', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/signup', {
      'POST auth/create': () =>
        apiError(400, 'bad_request', 'Invalid input', [{ path: 'password', message: 'is too common' }]),
    });
    await fillSignup();
    expect(await screen.findByText('Password is too common')).toBeInTheDocument();
  });

  it('creates the account (sealed) and lands the new admin on the dashboard', async () => {
    const { router, calls } = renderApp('/signup', {
      'POST auth/create': () => json({ token: validToken(), expiresAt: '2099-01-01T00:00:00.000Z' }, 201),
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/dashboard': () =>
        json(dashboardFixture(sessionFixture().portal!, { members: 1, admins: 1 })),
      'GET portal/users': () => json({ items: [], total: 0 }),
    });
    await fillSignup();
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/dashboard'));
    expect(openSealed(calls.find((c) => c.path === 'auth/create')!.body)).toEqual({
      email: 'ada@example.com',
      password: 'analytical-engine',
      firstName: 'Ada',
      lastName: 'Lovelace',
      portalName: 'Harbor View',
    });
    expect(await screen.findByText('No members yet')).toBeInTheDocument();
  });
});

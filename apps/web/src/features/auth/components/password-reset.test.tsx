import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json } from '@/testing/fetch-mock';
import { dashboardFixture, openSealed, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const TOKEN = 'r3set-t0ken-abcdefghijklmnop';
const accepted = () => json({ message: 'If an account has this address, a reset link is on its way.' }, 202);

const signedInApi = {
  'GET auth': () => json(sessionFixture(['admin'])),
  'GET portal/dashboard': () => json(dashboardFixture(sessionFixture().portal!)),
  'GET portal/users': () => json({ items: [], total: 0 }),
};

describe('forgot password', () => {
  it('always answers with the same confirmation', async () => {
    const { calls } = renderApp('/auth/forgot', { 'POST auth/resetPassword/ada%40example.com': accepted });
    const user = setupUser();
    await user.type(await screen.findByLabelText(/^Email/), ' Ada@Example.com ');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'If an account exists for ada@example.com, we have sent it a link',
    );
    expect(calls.some((c) => c.method === 'POST' && c.path === 'auth/resetPassword/ada%40example.com')).toBe(
      true,
    );
  });

  it('checks the address before sending', async () => {
    const { calls } = renderApp('/auth/forgot');
    const user = setupUser();
    await user.type(await screen.findByLabelText(/^Email/), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByText('Email must be an email address')).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('auth/resetPassword'))).toBe(false);
  });
});

describe('reset password', () => {
  it('sets the new password (sealed), signs in and goes home', async () => {
    const token = validToken();
    const { router, calls } = renderApp(`/auth/reset?token=${TOKEN}`, {
      'POST auth/reset': () => json({ token, expiresAt: '2099-01-01T00:00:00.000Z' }),
      ...signedInApi,
    });
    const user = setupUser();
    await user.type(await screen.findByLabelText(/^New password/), 'a-much-better-one');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'a-much-better-two');
    await user.click(screen.getByRole('button', { name: 'Save and sign in' }));
    expect(await screen.findByText('The two passwords differ')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^Confirm new password/));
    await user.type(screen.getByLabelText(/^Confirm new password/), 'a-much-better-one');
    await user.click(screen.getByRole('button', { name: 'Save and sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/dashboard'));
    expect(storage.getAuthToken()).toBe(token);
    expect(openSealed(calls.find((c) => c.path === 'auth/reset')!.body)).toEqual({
      token: TOKEN,
      password: 'a-much-better-one',
    });
  });

  it('shows a used or expired link with a way to get a new one', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp(`/auth/reset?token=${TOKEN}`, {
      'POST auth/reset': () =>
        apiError(
          400,
          'bad_request',
          'This link is not valid any more: it was used, replaced by a newer one, or has expired',
        ),
    });
    const user = setupUser();
    await user.type(await screen.findByLabelText(/^New password/), 'a-much-better-one');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'a-much-better-one');
    await user.click(screen.getByRole('button', { name: 'Save and sign in' }));
    expect(await screen.findByRole('heading', { name: 'This link can’t be used' })).toBeInTheDocument();
    expect(screen.getByText(/it was used, replaced by a newer one/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/auth/forgot');
  });

  it('puts a refused password on its field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp(`/auth/reset?token=${TOKEN}`, {
      'POST auth/reset': () =>
        apiError(400, 'bad_request', 'password: is too common', [
          { path: 'body.password', message: 'is too common; choose one that is harder to guess' },
        ]),
    });
    const user = setupUser();
    await user.type(await screen.findByLabelText(/^New password/), 'password1234');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'password1234');
    await user.click(screen.getByRole('button', { name: 'Save and sign in' }));
    expect(
      await screen.findByText('New password is too common; choose one that is harder to guess'),
    ).toBeInTheDocument();
  });

  it('says so when the link has no token', async () => {
    renderApp('/auth/reset');
    expect(await screen.findByRole('heading', { name: 'This link can’t be used' })).toBeInTheDocument();
  });

  it('takes the legacy /reset/:resetToken links to auth/legacyReset', async () => {
    const token = validToken();
    const { router, calls } = renderApp(`/reset/${TOKEN}`, {
      'POST auth/legacyReset': () => json({ token, expiresAt: '2099-01-01T00:00:00.000Z' }),
      ...signedInApi,
    });
    const user = setupUser();
    await user.type(await screen.findByLabelText(/^New password/), 'a-much-better-one');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'a-much-better-one');
    await user.click(screen.getByRole('button', { name: 'Save and sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/dashboard'));
    expect(openSealed(calls.find((c) => c.path === 'auth/legacyReset')!.body)).toEqual({
      resetToken: TOKEN,
      password: 'a-much-better-one',
    });
  });
});

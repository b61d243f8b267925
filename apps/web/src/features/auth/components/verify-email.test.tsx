import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const TOKEN = 'v3rify-t0ken-abcdefghijklmnop';
const unverified = () => {
  const session = sessionFixture(['admin']);
  return { ...session, user: { ...session.user, emailVerified: false } };
};

describe('VerifyEmailPage', () => {
  it('confirms the address once, on load', async () => {
    const session = sessionFixture(['user']);
    const { calls } = renderApp(`/verify?token=${TOKEN}`, {
      'POST auth/verify': () => json(session.user),
    });
    expect(await screen.findByRole('heading', { name: 'Email address confirmed' })).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/auth/login');
    const verifies = calls.filter((c) => c.path === 'auth/verify');
    expect(verifies).toHaveLength(1);
    expect(verifies[0]!.method).toBe('POST');
    expect(verifies[0]!.url).toContain(`token=${TOKEN}`);
  });

  it('explains a link that is not valid and sends a new one', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { calls } = renderApp(`/verify?token=${TOKEN}`, {
      'POST auth/verify': () =>
        apiError(
          400,
          'bad_request',
          'This link is not valid any more: it was used, replaced by a newer one, or has expired',
        ),
      'POST auth/activation/grace%40example.com': () => json({ message: 'On its way' }, 202),
    });
    expect(await screen.findByRole('heading', { name: 'This link is not valid' })).toBeInTheDocument();
    const user = setupUser();
    await user.type(screen.getByLabelText(/^Email/), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Request a new link' }));
    expect(
      await screen.findByText(
        'If grace@example.com has an account waiting for confirmation, a new link is on its way.',
      ),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'auth/activation/grace%40example.com')).toBe(true);
  });
});

describe('MustActivatePage', () => {
  it('shows the address and sends the mail again', async () => {
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/must-activate', {
      'GET auth': () => json(unverified()),
      'POST auth/activation/ada%40example.com': () => json({ message: 'On its way' }, 202),
    });
    expect(await screen.findByRole('heading', { name: 'Confirm your email address' })).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    await setupUser().click(screen.getByRole('button', { name: 'Send the mail again' }));
    expect(await screen.findByText(/A new link is on its way to ada@example.com/)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.path === 'auth/activation/ada%40example.com')).toBe(
      true,
    );
    expect(screen.getByRole('link', { name: 'Sign out' })).toHaveAttribute('href', '/auth/logout');
  });

  it('needs sign-in', async () => {
    const { router } = renderApp('/must-activate');
    await waitFor(() => expect(router.state.location.search).toBe('?redirect=%2Fmust-activate'));
  });
});

describe('unverified banner', () => {
  it('shows in the app until dismissed for the session', async () => {
    storage.setAuthToken(validToken());
    window.sessionStorage.clear();
    renderApp('/app/settings', {
      'GET auth': () => json(unverified()),
      'GET auth/twoFactor': () =>
        json({ enabled: true, otpauthUri: null, qrCode: null, recoveryCodesLeft: 10 }),
    });
    const banner = await screen.findByText('Confirm your email address');
    expect(screen.getByRole('link', { name: 'Confirm it now' })).toHaveAttribute('href', '/must-activate');
    expect(banner).toBeInTheDocument();
    await setupUser().click(screen.getByRole('button', { name: 'Dismiss until next time' }));
    expect(screen.queryByText('Confirm your email address')).not.toBeInTheDocument();
    expect(window.sessionStorage.getItem('latchkey.verifyBannerDismissed')).toBe('user-1');
  });
});

import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json } from '@/testing/fetch-mock';
import { openSealed, sessionFixture } from '@/testing/fixtures';
import { expiredToken, validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

async function fillAndSubmit(email: string, password: string) {
  const user = setupUser();
  await user.type(await screen.findByLabelText(/^Email/), email);
  await user.type(screen.getByLabelText(/^Password/), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('LoginPage', () => {
  it('shows wrong credentials inline and stays on the page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { router } = renderApp('/', {
      'POST auth/secure/login': () => apiError(401, 'invalid_credentials', 'Wrong email or password'),
    });
    await fillAndSubmit('ada@example.com', 'wrong-password');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'That email and password don’t match an account.',
    );
    expect(router.state.location.pathname).toBe('/');
  });

  it('keeps the page and its redirect when sign-in fails while an expired token is stored', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    storage.setAuthToken(expiredToken());
    const { router } = renderApp('/?redirect=%2Fapp%2Fprofile', {
      'POST auth/secure/login': () => apiError(401, 'invalid_credentials', 'Wrong email or password'),
    });
    await fillAndSubmit('ada@example.com', 'wrong-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('don’t match an account');
    expect(router.state.location.search).toBe('?redirect=%2Fapp%2Fprofile');
  });

  it('explains a rate limit with the wait', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/auth/login', {
      'POST auth/secure/login': () =>
        apiError(429, 'rate_limited', 'Too many attempts', undefined, { 'Retry-After': '42' }),
    });
    await fillAndSubmit('ada@example.com', 'whatever');
    expect(await screen.findByRole('alert')).toHaveTextContent('Try again in 42 seconds.');
  });

  it('validates the email before sending anything', async () => {
    const { calls } = renderApp('/');
    await fillAndSubmit('not-an-email', 'x');
    expect(await screen.findByText('Email must be an email address')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'auth/secure/login')).toBe(false);
  });

  it('signs in with a sealed payload, stores the token and lands where the redirect says', async () => {
    const token = validToken();
    const { router, calls } = renderApp('/?redirect=%2Fapp%2Fprofile', {
      'POST auth/secure/login': () => json({ token, expiresAt: '2099-01-01T00:00:00.000Z' }),
      'GET auth': () => json(sessionFixture(['admin'])),
    });
    await fillAndSubmit(' Ada@Example.com ', 'correct horse');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/profile'));
    expect(storage.getAuthToken()).toBe(token);

    const login = calls.find((c) => c.path === 'auth/secure/login')!;
    expect(login.body).toMatchObject({ k: 2, n: expect.stringMatching(/^\d{24}$/) });
    expect(openSealed(login.body)).toEqual({
      email: 'ada@example.com',
      password: 'correct horse',
      scope: 'app',
      systemType: 'app',
    });
    expect(login.headers.authorization).toBeUndefined();
    // GET auth afterwards carries the new token.
    expect(calls.find((c) => c.path === 'auth')!.headers.authorization).toBe(`Bearer ${token}`);
  });
});

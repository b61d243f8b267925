import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const PRE_AUTH = 'pre-auth-token';

function setup(routes: Record<string, MockHandler>) {
  return renderApp('/?redirect=%2Fapp%2Fsettings', {
    'POST auth/secure/login': () =>
      json({ twoFactorRequired: true, preAuthToken: PRE_AUTH, expiresAt: '2099-01-01T00:00:00.000Z' }),
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET auth/twoFactor': () =>
      json({ enabled: true, otpauthUri: null, qrCode: null, recoveryCodesLeft: 10 }),
    ...routes,
  });
}

async function signInWithPassword() {
  const user = setupUser();
  await user.type(await screen.findByLabelText(/^Email/), 'ada@example.com');
  await user.type(screen.getByLabelText(/^Password/), 'correct horse');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeInTheDocument();
  expect(screen.getByText('Enter the code from your authenticator app.')).toBeInTheDocument();
  return user;
}

describe('two-factor sign-in', () => {
  it('asks for the code, shows a wrong one on the field, then signs in with the pre-auth token', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const token = validToken();
    let attempts = 0;
    const { router, calls } = setup({
      'POST auth/twoFactorCode': (call) => {
        attempts += 1;
        if ((call.body as { code: string }).code === '111111') {
          return apiError(400, 'bad_request', 'code is not valid (or was already used)', [
            { path: 'body.code', message: 'is not valid (or was already used)' },
          ]);
        }
        return json({ token, expiresAt: '2099-01-01T00:00:00.000Z' });
      },
    });
    const user = await signInWithPassword();
    const input = screen.getByLabelText(/^6-digit code/);
    expect(input).toHaveFocus();
    // Only digits go in.
    await user.type(input, '11a1 111');
    expect(input).toHaveValue('111111');
    await user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    await waitFor(() =>
      expect(input).toHaveAccessibleDescription(/That code is not valid \(or was already used\)/),
    );
    expect(storage.getAuthToken()).toBeNull();

    await user.clear(input);
    await user.type(input, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/settings'));
    expect(storage.getAuthToken()).toBe(token);
    expect(attempts).toBe(2);

    const codeCall = calls.filter((c) => c.path === 'auth/twoFactorCode').at(-1)!;
    expect(codeCall.headers.authorization).toBe(`Bearer ${PRE_AUTH}`);
    expect(codeCall.body).toEqual({ code: '123456' });
    // The session afterwards runs on the new token, never on the pre-auth one.
    expect(calls.find((c) => c.path === 'auth')!.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('accepts a recovery code instead', async () => {
    const { calls, router } = setup({
      'POST auth/twoFactorCode': () => json({ token: validToken(), expiresAt: '2099-01-01T00:00:00.000Z' }),
    });
    const user = await signInWithPassword();
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const input = screen.getByLabelText(/^Recovery code/);
    await user.type(input, 'nope');
    await user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(await screen.findByText('A recovery code looks like abcde-fghij')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'auth/twoFactorCode')).toBe(false);

    await user.clear(input);
    await user.type(input, 'ABCDE-FGH23');
    await user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/settings'));
    expect(calls.find((c) => c.path === 'auth/twoFactorCode')!.body).toEqual({ code: 'abcde-fgh23' });
  });

  it('explains too many wrong codes with the wait', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup({
      'POST auth/twoFactorCode': () =>
        apiError(429, 'rate_limited', 'Too many attempts', undefined, { 'Retry-After': '240' }),
    });
    const user = await signInWithPassword();
    await user.type(screen.getByLabelText(/^6-digit code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Try again in 4 minutes.');
  });

  it('goes back to the password step with "Start again"', async () => {
    setup({});
    const user = await signInWithPassword();
    await user.click(screen.getByRole('button', { name: 'Start again' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/auth/forgot');
  });
});

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json } from '@/testing/fetch-mock';
import { openSealed, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

describe('ProfilePage', () => {
  it('saves the name', async () => {
    storage.setAuthToken(validToken());
    const session = sessionFixture(['user']);
    const { calls } = renderApp('/user/settingsProfile', {
      'GET auth': () => json(session),
      'POST auth/profile': (call) => json({ ...session.user, ...(call.body as object) }),
    });
    const user = userEvent.setup();
    const first = await screen.findByLabelText('First name');
    await user.clear(first);
    await user.type(first, 'Augusta');
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText('Profile saved')).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'auth/profile')!.body).toEqual({
      firstName: 'Augusta',
      lastName: 'Lovelace',
    });
  });

  it('changes the password (sealed) and stores the new token', async () => {
    storage.setAuthToken(validToken('old'));
    const fresh = validToken('new');
    const { calls } = renderApp('/app/profile', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'POST auth/password': () => json({ token: fresh, expiresAt: '2099-01-01T00:00:00.000Z' }),
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Current password/), 'old-password');
    await user.type(screen.getByLabelText(/^New password/), 'a-much-better-one');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'a-much-better-one');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    expect(storage.getAuthToken()).toBe(fresh);
    expect(openSealed(calls.find((c) => c.path === 'auth/password')!.body)).toEqual({
      currentPassword: 'old-password',
      newPassword: 'a-much-better-one',
    });
  });

  it('marks a wrong current password on its field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    storage.setAuthToken(validToken());
    renderApp('/app/profile', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'POST auth/password': () =>
        apiError(400, 'bad_request', 'Invalid input', [
          { path: 'currentPassword', message: 'is not correct' },
        ]),
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Current password/), 'nope-nope');
    await user.type(screen.getByLabelText(/^New password/), 'a-much-better-one');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'a-much-better-one');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Current password/)).toHaveAccessibleDescription(
        'Current password is not right',
      ),
    );
  });

  it('refuses mismatched new passwords without calling the server', async () => {
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/app/profile', { 'GET auth': () => json(sessionFixture(['admin'])) });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^Current password/), 'old-password');
    await user.type(screen.getByLabelText(/^New password/), 'a-much-better-one');
    await user.type(screen.getByLabelText(/^Confirm new password/), 'a-much-better-two');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The two new passwords differ')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'auth/password')).toBe(false);
  });
});

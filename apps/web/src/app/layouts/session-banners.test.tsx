import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { memberFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

afterEach(() => window.sessionStorage.clear());

const supportSession = () =>
  sessionFixture(['user'], {
    user: { ...sessionFixture(['user']).user, email: 'grace@example.com', _id: 'user-2' },
    impersonatedBy: { _id: 'staff-1', email: 'staff@latchkey.dev' },
  });

describe('support session banner', () => {
  it('says who acts as whom, and ending it returns to the staff token and the origin', async () => {
    const staffToken = validToken('staff-1');
    const supportToken = validToken('user-2');
    window.sessionStorage.setItem(
      'latchkey.supportSession',
      JSON.stringify({
        staffToken,
        originUrl: '/app/user/user-2',
        staffPortal: null,
        staffPortalContext: null,
      }),
    );
    storage.setAuthToken(supportToken);
    const { calls, router } = renderApp('/user/settingsProfile', {
      'GET auth': (call) =>
        json(
          call.headers.authorization === `Bearer ${staffToken}`
            ? sessionFixture(['superAdmin'])
            : supportSession(),
        ),
      'GET auth/twoFactor': () =>
        json({ enabled: false, otpauthUri: null, qrCode: null, recoveryCodesLeft: 0 }),
      'POST auth/logout': () => json(undefined, 204),
      'GET portal/user/user-2': () => json({ member: memberFixture(), accessCode: null }),
      'GET user/user-2/devices': () => json([]),
    });
    const banner = await screen.findByRole('region', { name: 'Support session' });
    expect(banner).toHaveTextContent(
      'You are acting as grace@example.com (support session by staff@latchkey.dev)',
    );
    // Signing the person out everywhere is not offered while acting as them.
    expect(screen.queryByRole('button', { name: 'Sign out everywhere' })).not.toBeInTheDocument();

    await setupUser().click(screen.getByRole('button', { name: 'End support session' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/user/user-2'));
    const logout = calls.find((c) => c.path === 'auth/logout')!;
    expect(logout.headers.authorization).toBe(`Bearer ${supportToken}`);
    expect(storage.getAuthToken()).toBe(staffToken);
    expect(window.sessionStorage.getItem('latchkey.supportSession')).toBeNull();
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Support session' })).not.toBeInTheDocument(),
    );
  });

  it('sends the staff member to sign in when their own token has expired meanwhile', async () => {
    window.sessionStorage.setItem(
      'latchkey.supportSession',
      JSON.stringify({ staffToken: 'expired.token.x', originUrl: '/app/user/user-2', staffPortal: null }),
    );
    storage.setAuthToken(validToken('user-2'));
    const { router } = renderApp('/user/settingsProfile', {
      'GET auth': () => json(supportSession()),
      'POST auth/logout': () => json(undefined, 204),
    });
    await setupUser().click(await screen.findByRole('button', { name: 'End support session' }));
    await waitFor(() => expect(router.state.location.search).toBe('?redirect=%2Fapp%2Fuser%2Fuser-2'));
    expect(storage.getAuthToken()).toBeNull();
  });
});

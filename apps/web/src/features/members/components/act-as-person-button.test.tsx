import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json, type MockHandler } from '@/testing/fetch-mock';
import { memberFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

afterEach(() => window.sessionStorage.clear());

function setup(roles: ('admin' | 'superAdmin')[], routes: Record<string, MockHandler> = {}) {
  const staffToken = validToken('user-1');
  storage.setAuthToken(staffToken);
  const member = memberFixture();
  const view = renderApp(`/app/user/${member._id}`, {
    'GET auth': () => json(sessionFixture(roles)),
    [`GET portal/user/${member._id}`]: () => json({ member, accessCode: null }),
    [`GET user/${member._id}/devices`]: () => json([]),
    'GET portal/devices': () => json({ items: [], total: 0 }),
    ...routes,
  });
  return { ...view, staffToken };
}

describe('Act as this person', () => {
  it('is not offered to portal admins', async () => {
    setup(['admin']);
    expect(await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Act as this person' })).not.toBeInTheDocument();
  });

  it('starts a support session for platform staff, keeping their token and the page to come back to', async () => {
    const supportToken = validToken('user-2');
    const { calls, router, staffToken } = setup(['superAdmin'], {
      'POST user/user-2/session': () =>
        json({ token: supportToken, expiresAt: '2099-01-01T00:00:00.000Z', originUrl: '/app/user/user-2' }),
      'GET auth': (call) =>
        json(
          call.headers.authorization === `Bearer ${supportToken}`
            ? sessionFixture(['user'], {
                user: { ...sessionFixture().user, _id: 'user-2', email: 'grace@example.com' },
                impersonatedBy: { _id: 'user-1', email: 'ada@example.com' },
              })
            : sessionFixture(['superAdmin']),
        ),
      'GET auth/twoFactor': () =>
        json({ enabled: false, otpauthUri: null, qrCode: null, recoveryCodesLeft: 0 }),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Act as this person' }));
    const dialog = await screen.findByRole('dialog', { name: 'Act as Grace Hopper?' });
    await user.click(within(dialog).getByRole('button', { name: 'Start support session' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user'));
    expect(storage.getAuthToken()).toBe(supportToken);
    expect(calls.find((c) => c.path === 'user/user-2/session')!.body).toEqual({
      originUrl: '/app/user/user-2',
    });
    expect(JSON.parse(window.sessionStorage.getItem('latchkey.supportSession')!)).toMatchObject({
      staffToken,
      originUrl: '/app/user/user-2',
    });
    expect(await screen.findByRole('region', { name: 'Support session' })).toHaveTextContent(
      'You are acting as grace@example.com (support session by ada@example.com)',
    );
  });
});

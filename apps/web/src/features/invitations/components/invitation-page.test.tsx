import type { Invitation } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { openSealed, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const TOKEN = 'inv1te-t0ken-abcdefghijklmnop';

function invitationFixture(overrides: Partial<Invitation> = {}): Invitation {
  return {
    email: 'grace@example.com',
    firstName: 'Grace',
    lastName: '',
    portal: { _id: 'portal-2', name: 'Seaside Lofts' },
    role: 'user',
    invitedBy: 'Ada Lovelace',
    needsPassword: true,
    status: 'invited',
    expiresAt: '2099-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function setup(routes: Record<string, MockHandler> = {}, invitation = invitationFixture()) {
  return renderApp(`/invite?token=${TOKEN}`, {
    'POST user/inviteFetchUser': () => json(invitation),
    ...routes,
  });
}

describe('InvitationPage', () => {
  it('shows who invited whom to what, creates the account and signs in', async () => {
    const token = validToken();
    const session = sessionFixture(['user']);
    const { calls, router } = setup({
      'POST user/inviteResponse': () =>
        json({
          status: 'accepted',
          session: { token, expiresAt: '2099-01-01T00:00:00.000Z' },
          portalId: 'portal-2',
        }),
      'GET auth': () => json(session),
      'GET auth/twoFactor': () =>
        json({ enabled: false, otpauthUri: null, qrCode: null, recoveryCodesLeft: 0 }),
    });
    expect(await screen.findByRole('heading', { name: 'Join Seaside Lofts' })).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace invited you to join as a user.')).toBeInTheDocument();
    expect(screen.getByText('grace@example.com')).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'user/inviteFetchUser')!.body).toEqual({ token: TOKEN });

    const user = setupUser();
    expect(screen.getByLabelText('First name')).toHaveValue('Grace');
    await user.type(screen.getByLabelText('Last name'), 'Hopper');
    await user.type(screen.getByLabelText(/^Password/), 'short');
    await user.click(screen.getByRole('button', { name: 'Accept and create account' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'user/inviteResponse')).toBe(false);

    await user.clear(screen.getByLabelText(/^Password/));
    await user.type(screen.getByLabelText(/^Password/), 'compiler-pioneer');
    await user.type(screen.getByLabelText(/^Confirm password/), 'compiler-pioneer');
    await user.click(screen.getByRole('button', { name: 'Accept and create account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user'));
    expect(storage.getAuthToken()).toBe(token);
    expect(openSealed(calls.find((c) => c.path === 'user/inviteResponse')!.body)).toEqual({
      token: TOKEN,
      accept: true,
      password: 'compiler-pioneer',
      firstName: 'Grace',
      lastName: 'Hopper',
    });
  });

  it('sends someone with an account to sign in, with a message', async () => {
    const { router, calls } = setup(
      {
        'POST user/inviteResponse': () => json({ status: 'accepted', session: null, portalId: 'portal-2' }),
      },
      invitationFixture({ needsPassword: false }),
    );
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(
      screen.getByText('You joined Seaside Lofts. Sign in with your Latchkey password to open it.'),
    ).toBeInTheDocument();
    expect(router.state.location.search).toBe('?redirect=%2Fspace%2Fportal-2');
    expect(openSealed(calls.find((c) => c.path === 'user/inviteResponse')!.body)).toEqual({
      token: TOKEN,
      accept: true,
    });
  });

  it('declines after a confirmation', async () => {
    const { calls } = setup({
      'POST user/inviteResponse': () => json({ status: 'declined', session: null, portalId: 'portal-2' }),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Decline' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline the invitation?' });
    await user.click(within(dialog).getByRole('button', { name: 'Decline invitation' }));
    expect(await screen.findByRole('heading', { name: 'Invitation declined' })).toBeInTheDocument();
    expect(openSealed(calls.find((c) => c.path === 'user/inviteResponse')!.body)).toEqual({
      token: TOKEN,
      accept: false,
    });
  });

  it('explains a link that is no longer open', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup({
      'POST user/inviteFetchUser': () =>
        apiError(400, 'bad_request', 'This invitation is no longer open; ask for a new one'),
    });
    expect(await screen.findByRole('heading', { name: 'This invitation can’t be used' })).toBeInTheDocument();
    expect(screen.getByText('This invitation is no longer open; ask for a new one')).toBeInTheDocument();
  });
});

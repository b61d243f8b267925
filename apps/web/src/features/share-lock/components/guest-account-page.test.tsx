import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json } from '@/testing/fetch-mock';
import { dashboardFixture, openSealed, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const LINK = 'gu3st-l1nk-abcdefghijklmnopqrstuvwxyz';

const signedInApi = {
  'GET auth': () => json(sessionFixture(['admin'])),
  'GET portal/dashboard': () => json(dashboardFixture(sessionFixture().portal!)),
  'GET portal/users': () => json({ items: [], total: 0 }),
};

// Issue 16, defect 1: a guest without an account no longer gets one from the guest link (hosts see
// it too); the link mailed to the stay's address opens this page, where its owner chooses a password.
describe('GuestAccountPage (/s/account?token=…)', () => {
  it('lets the owner of the address choose their password (sealed), then signs them in', async () => {
    const session = validToken();
    const { router, calls } = renderApp(`/s/account?token=${LINK}`, {
      'POST sharelock/account': () => json({ token: session, expiresAt: '2099-01-01T00:00:00.000Z' }),
      ...signedInApi,
    });
    const user = setupUser();
    await user.type(await screen.findByLabelText('Your name'), 'Vera');
    await user.type(screen.getByLabelText(/^Password/), 'a-much-better-one');
    await user.type(screen.getByLabelText(/^Confirm password/), 'a-much-better-two');
    await user.click(screen.getByRole('button', { name: 'Save and sign in' }));
    expect(await screen.findByText('The two passwords differ')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'sharelock/account')).toBe(false);
    await user.clear(screen.getByLabelText(/^Confirm password/));
    await user.type(screen.getByLabelText(/^Confirm password/), 'a-much-better-one');
    await user.click(screen.getByRole('button', { name: 'Save and sign in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/dashboard'));
    expect(storage.getAuthToken()).toBe(session);
    expect(openSealed(calls.find((c) => c.path === 'sharelock/account')!.body)).toEqual({
      token: LINK,
      name: 'Vera',
      password: 'a-much-better-one',
    });
  });

  it('says when the link was used, replaced or has expired, and when it is damaged', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const first = renderApp(`/s/account?token=${LINK}`, {
      'POST sharelock/account': () =>
        apiError(
          400,
          'bad_request',
          'This link is not valid any more: it was used, replaced by a newer one, or has expired',
        ),
    });
    const user = setupUser();
    await user.type(await screen.findByLabelText(/^Password/), 'a-much-better-one');
    await user.type(screen.getByLabelText(/^Confirm password/), 'a-much-better-one');
    await user.click(screen.getByRole('button', { name: 'Save and sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('it was used, replaced by a newer one');
    expect(screen.getByRole('heading', { name: 'This link can’t be used' })).toBeInTheDocument();
    first.unmount();
    renderApp('/s/account?token=short');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is incomplete or damaged');
  });

  it('shows a refused password on the field', async () => {
    renderApp(`/s/account?token=${LINK}`, {
      'POST sharelock/account': () =>
        apiError(400, 'bad_request', 'password: is too common', [
          { path: 'body.password', message: 'is too common; choose one that is harder to guess' },
        ]),
    });
    const user = setupUser();
    await user.type(await screen.findByLabelText(/^Password/), 'password1');
    await user.type(screen.getByLabelText(/^Confirm password/), 'password1');
    await user.click(screen.getByRole('button', { name: 'Save and sign in' }));
    expect(await screen.findByText(/is too common/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save and sign in' })).toBeInTheDocument();
  });
});

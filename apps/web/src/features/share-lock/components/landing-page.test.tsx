import type { ShareLanding } from '@latchkey/shared';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json } from '@/testing/fetch-mock';
import { dashboardFixture, openSealed, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const token = 'S1.stay-1.1.abcdefghijklmnopqrstuv';

const landing: ShareLanding = {
  kind: 'stay',
  listing: {
    _id: 'listing-1',
    title: 'Cliff cabin',
    address: '1 Cliff Road',
    checkInTime: '15:00',
    checkOutTime: '11:00',
    houseRules: '',
    timeZone: 'UTC',
    images: [],
    requestPath: null,
  },
  locks: [
    {
      name: 'Front door',
      text: 'Blue door',
      wifiName: 'cabin',
      wifiPassword: 'hunter22',
      parking: '',
      images: [],
    },
  ],
  stay: {
    guestName: 'Rita',
    startDate: '2031-02-01',
    endDate: '2031-02-04',
    checkInTime: '15:00',
    checkOutTime: '11:00',
    state: 'approved',
    accessState: 'none',
    accessFrom: '2031-02-01T15:00:00.000Z',
    accessUntil: '2031-02-04T11:00:00.000Z',
    code: null,
    qr: null,
    accountLinked: false,
    arrivalUntil: '2031-02-07T11:00:00.000Z',
    arrivalShown: true,
  },
};

// Issue 16, defect 4: a cancelled stay's link answers 410, and a past stay's link stops showing the
// way in; the page says so instead of "this link does not open anything" or empty doors.
describe('LandingPage (/s?t=…)', () => {
  it('says a cancelled stay’s link no longer works', async () => {
    renderApp(`/s?t=${token}`, {
      [`GET device/token/${token}`]: () => apiError(410, 'link_ended', 'This link no longer works'),
    });
    expect(await screen.findByText('This link no longer works')).toBeInTheDocument();
    expect(screen.queryByText(/Wi-Fi/)).not.toBeInTheDocument();
  });

  it('shows the way in during the stay, and says when it stopped after it', async () => {
    const first = renderApp(`/s?t=${token}`, { [`GET device/token/${token}`]: () => json(landing) });
    expect(await screen.findByText('hunter22')).toBeInTheDocument();
    first.unmount();
    // Another link (the page's queries are kept by link across renders).
    const past = 'S1.stay-2.1.abcdefghijklmnopqrstuv';
    renderApp(`/s?t=${past}`, {
      [`GET device/token/${past}`]: () =>
        json({
          ...landing,
          locks: [{ name: 'Front door', text: '', wifiName: '', wifiPassword: '', parking: '', images: [] }],
          stay: { ...landing.stay!, arrivalShown: false },
        }),
    });
    expect(
      await screen.findByText(/arrival instructions \(door, Wi-Fi, parking\) were shown until/),
    ).toBeInTheDocument();
    expect(screen.queryByText('No instructions for this door.')).not.toBeInTheDocument();
    expect(screen.getByText('1 Cliff Road')).toBeInTheDocument();
  });
});

// Issue 16, defect 1: the guest link is seen by hosts too, so keeping the stay in an account makes
// no account from it: without an account at the stay's address, the page says where a link was mailed.
describe('LandingPage: keeping the stay in an account', () => {
  it('says a link was mailed to the stay’s address when it has no account', async () => {
    const { calls } = renderApp(`/s?t=${token}`, {
      [`GET device/token/${token}`]: () => json(landing),
      [`POST device/${token}/sharelock/add`]: () =>
        json(
          {
            message:
              'We sent a link to r•••@example.org. Follow it to choose your password and keep this stay in your account.',
            sentTo: 'r•••@example.org',
          },
          202,
        ),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Keep this stay in an account' }));
    await user.click(screen.getByRole('button', { name: 'Mail me a link' }));
    expect(await screen.findByRole('status', { name: 'Check your mail' })).toHaveTextContent(
      'We sent a link to r•••@example.org',
    );
    expect(openSealed(calls.find((c) => c.method === 'POST')!.body)).toEqual({ password: '' });
    expect(storage.getAuthToken()).toBeNull();
  });

  it('signs in with the password of the address’s account', async () => {
    const session = validToken();
    const { router } = renderApp(`/s?t=${token}`, {
      [`GET device/token/${token}`]: () => json(landing),
      [`POST device/${token}/sharelock/add`]: () =>
        json({ token: session, expiresAt: '2099-01-01T00:00:00.000Z' }),
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/dashboard': () => json(dashboardFixture(sessionFixture().portal!)),
      'GET portal/users': () => json({ items: [], total: 0 }),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Keep this stay in an account' }));
    await user.type(screen.getByLabelText('Password of your account'), 'my own passphrase');
    await user.click(screen.getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/dashboard'));
    expect(storage.getAuthToken()).toBe(session);
  });
});

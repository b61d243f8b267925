import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { memberDeviceFixture, memberFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const me = sessionFixture(['user']);
const userId = me.user._id;

const myLocks = {
  at: '2026-11-23T10:00:00.000Z',
  locks: [
    {
      ...memberDeviceFixture({ _id: 'device-1', name: 'Front door', timeZone: 'Europe/Berlin' }),
      schedule: { windows: [{ days: [1, 2, 3, 4, 5], start: '08:00', end: '12:00' }] },
      localTime: 'Mon 2026-11-23 11:00',
      canOpen: true,
      reason: null,
      credentials: ['remote', 'code'],
      online: false,
      lastSeenAt: '2026-11-23T09:00:00.000Z',
    },
    {
      ...memberDeviceFixture({ _id: 'device-2', name: 'Bike room', timeZone: 'Europe/Berlin' }),
      schedule: { windows: [{ days: [6, 0], start: '20:00', end: '06:00' }] },
      localTime: 'Mon 2026-11-23 11:00',
      canOpen: false,
      reason: 'outside_schedule',
      credentials: ['remote'],
      online: false,
      lastSeenAt: '2026-11-23T10:59:00.000Z',
    },
    {
      ...memberDeviceFixture({ _id: 'device-3', name: 'Store room', timeZone: 'Europe/Berlin' }),
      schedule: null,
      localTime: 'Mon 2026-11-23 11:00',
      canOpen: true,
      reason: null,
      credentials: ['remote', 'code'],
      online: false,
      lastSeenAt: null,
    },
  ],
};

/** The locks as answered, with `changes` applied to one of them. */
const withLock = (id: string, changes: Partial<(typeof myLocks.locks)[number]>) => ({
  ...myLocks,
  locks: myLocks.locks.map((lock) => (lock._id === id ? { ...lock, ...changes } : lock)),
});

function setup(path: string, routes: Record<string, MockHandler> = {}) {
  storage.setAuthToken(validToken());
  return renderApp(path, {
    'GET auth': () => json(me),
    [`GET user/${userId}/accessTime`]: () => json(myLocks),
    [`GET portal/user/${userId}`]: () =>
      json({ member: memberFixture({ _id: userId }), accessCode: '482915' }),
    ...routes,
  });
}

describe('basic-user area', () => {
  it('lists their locks with when they may open each and whether they can now; their code on request', async () => {
    setup('/user');
    const list = await screen.findByRole('list', { name: 'Your locks' });
    const [front, bikes, store] = within(list).getAllByRole('listitem');
    expect(front).toHaveTextContent('Front door');
    expect(front).toHaveTextContent('You can open it now');
    expect(front).toHaveTextContent('Mon–Fri 08:00–12:00');
    // The lock's clock now, in the shared format with its zone (not the API's "Mon 2026-11-23 11:00").
    expect(front).toHaveTextContent('Now Mon, Nov 23, 2026, 11:00 Europe/Berlin');
    expect(bikes).toHaveTextContent('Outside their schedule');
    // Each says whether the lock is connected, and how they open it.
    expect(front).toHaveTextContent(/Offline, last seen .* ago/);
    expect(front).toHaveTextContent('Opens with: App and QR code · Code');
    // A lock that never connected has none of their credentials: not "You can open it now".
    expect(store).toHaveTextContent('Never connected');
    expect(store).toHaveTextContent('Not connected yet');
    expect(store).not.toHaveTextContent('You can open it now');
    expect(within(front!).getByRole('link', { name: 'Front door' })).toHaveAttribute(
      'href',
      '/user/locks/device-1',
    );

    expect(screen.queryByText('482915')).not.toBeInTheDocument();
    await setupUser().click(await screen.findByRole('button', { name: 'Show the code' }));
    expect(screen.getByText('482915')).toBeInTheDocument();
  });

  it('says when they have no locks and no code yet', async () => {
    setup('/user', {
      [`GET user/${userId}/accessTime`]: () => json({ at: myLocks.at, locks: [] }),
      [`GET portal/user/${userId}`]: () => json({ member: memberFixture({ _id: userId }), accessCode: null }),
    });
    expect(await screen.findByText('No locks yet')).toBeInTheDocument();
    expect(await screen.findByText(/You have no keypad code yet/)).toBeInTheDocument();
  });

  it('shows an error with a retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup('/user', { [`GET user/${userId}/accessTime`]: () => apiError(500, 'internal', 'Boom') });
    expect(await screen.findByText('Could not load your locks')).toBeInTheDocument();
  });

  it('shows one lock: its opening times in its own zone and how they open it', async () => {
    setup('/user/locks/device-2');
    expect(await screen.findByRole('heading', { level: 1, name: 'Bike room' })).toBeInTheDocument();
    expect(screen.getByText('Now Mon, Nov 23, 2026, 11:00 Europe/Berlin')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Your opening times' })).toHaveTextContent(
      'Sat, Sun 20:00–06:00',
    );
    expect(screen.getByText('This app or your QR code')).toBeInTheDocument();
  });

  it('offers to open a lock they may open now, and says why not otherwise', async () => {
    setup('/user/locks/device-1', {
      [`GET user/${userId}/accessTime`]: () => json(withLock('device-1', { online: true })),
    });
    expect(await screen.findByRole('button', { name: 'Unlock Front door now' })).toBeEnabled();
    expect(screen.getByText('It is online: it opens within seconds.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Lock Front door now' })).not.toBeInTheDocument();
  });

  it('disables "Unlock now" with the reason for a lock that never connected, and sends nothing', async () => {
    const sent = vi.fn(() => json({}));
    setup('/user/locks/device-3', { 'POST device/device-3/command': sent });
    const unlock = await screen.findByRole('button', { name: 'Unlock Store room now' });
    expect(unlock).toBeDisabled();
    expect(unlock).toHaveAccessibleDescription(
      'Store room has never connected: it cannot be opened from here until it connects.',
    );
    expect(screen.getByText('Store room has never connected')).toBeInTheDocument();
    expect(screen.getByText('Not connected yet')).toBeInTheDocument();
    await setupUser().click(unlock);
    expect(sent).not.toHaveBeenCalled();
  });

  it('disables "Unlock now" for an offline lock, saying since when', async () => {
    setup('/user/locks/device-1');
    const unlock = await screen.findByRole('button', { name: 'Unlock Front door now' });
    expect(unlock).toBeDisabled();
    expect(unlock).toHaveAccessibleDescription(
      /^Front door is offline \(last seen .* ago\): it cannot be opened from here until it is back online\.$/,
    );
    expect(screen.getByText(/your code, card and QR code work if it took them/)).toBeInTheDocument();
  });

  it('shows the refusal of a lock that went offline meanwhile, and reads the locks again', async () => {
    let answers = 0;
    const locks = vi.fn(() => json(answers++ === 0 ? withLock('device-1', { online: true }) : myLocks));
    setup('/user/locks/device-1', {
      [`GET user/${userId}/accessTime`]: locks,
      'POST device/device-1/command': () =>
        apiError(409, 'lock_offline', 'Front door is offline (last seen 2026-11-23 09:00 UTC): …'),
    });
    await setupUser().click(await screen.findByRole('button', { name: 'Unlock Front door now' }));
    // The screen learns it is offline: the button is disabled with the reason.
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: 'Unlock Front door now' })).toBeDisabled(),
    );
    expect(screen.getByRole('button', { name: 'Unlock Front door now' })).toHaveAccessibleDescription(
      /^Front door is offline/,
    );
    expect(locks).toHaveBeenCalledTimes(2);
  });

  it('does not offer to open a lock outside their times', async () => {
    setup('/user/locks/device-2');
    expect(await screen.findByText('Not right now: it is outside your opening times.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Unlock/ })).not.toBeInTheDocument();
  });

  it('prepares their latest access as a code for a lock that is offline, and says when it cannot', async () => {
    const asked = vi.fn(() =>
      json({
        token: 'LKS1.a.b',
        expiresAt: '2026-11-23T10:10:00.000Z',
        version: 4,
        entries: 2,
        qrCode: 'data:image/png;base64,iVBORw0KGgo=',
      }),
    );
    setup('/user/locks/device-1', { 'POST device/device-1/synclock/user/token': asked });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Bring my access to Front door' }));
    expect(
      await screen.findByRole('img', { name: 'Your access for Front door, to show at its reader' }),
    ).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=');
    expect(screen.getByText(/It carries 2 of your credentials/)).toBeInTheDocument();
    expect(asked).toHaveBeenCalledTimes(1);

    setup('/user/locks/device-2', {
      'POST device/device-2/synclock/user/token': () =>
        apiError(403, 'forbidden', 'You have no access to this lock'),
    });
    await user.click(await screen.findByRole('button', { name: 'Bring my access to Bike room' }));
    expect(await screen.findByText('Could not prepare your access')).toBeInTheDocument();
    expect(screen.getByText('You have no access to this lock')).toBeInTheDocument();
  });

  it('offers to bring access only to a lock that is offline and has connected before', async () => {
    const online = { ...myLocks, locks: myLocks.locks.map((lock) => ({ ...lock, online: true })) };
    setup('/user/locks/device-1', { [`GET user/${userId}/accessTime`]: () => json(online) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Front door' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Bring my access/ })).not.toBeInTheDocument();
  });

  it('says when the lock is not theirs', async () => {
    setup('/user/locks/device-9');
    expect(await screen.findByText("This lock doesn't exist")).toBeInTheDocument();
  });
});

import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { memberDeviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';
import { renewalDelayMs } from '../api/get-qr-code';

const me = sessionFixture(['user']);
const userId = me.user._id;
const PNG = 'data:image/png;base64,iVBORw0KGgo=';

function lock(
  id: string,
  name: string,
  canOpen: boolean,
  lastSeenAt: string | null = '2026-11-23T10:59:00.000Z',
) {
  return {
    ...memberDeviceFixture({ _id: id, name, timeZone: 'UTC' }),
    schedule: null,
    localTime: 'Mon 2026-11-23 11:00',
    canOpen,
    reason: canOpen ? null : 'outside_schedule',
    credentials: ['remote'],
    online: lastSeenAt !== null,
    lastSeenAt,
  };
}

function qrAnswer(secondsLeft: number, token = 'LKQ1.a.b') {
  return { token, expiresAt: new Date(Date.now() + secondsLeft * 1000).toISOString(), qrCode: PNG };
}

function setup(routes: Record<string, MockHandler> = {}) {
  storage.setAuthToken(validToken());
  return renderApp('/user/qr', {
    'GET auth': () => json(me),
    [`GET user/${userId}/accessTime`]: () =>
      json({
        at: '2026-11-23T11:00:00.000Z',
        locks: [lock('d1', 'Front door', true), lock('d2', 'Bike room', false)],
      }),
    'POST user/qr': () => json(qrAnswer(120)),
    ...routes,
  });
}

describe('QR page', () => {
  it('shows a fresh code with its time left and the locks it opens now; asks for a new one on request', async () => {
    const issued = vi.fn(() => json(qrAnswer(120)));
    setup({ 'POST user/qr': issued });
    expect(await screen.findByRole('img', { name: "Your QR code for the lock's reader" })).toHaveAttribute(
      'src',
      PNG,
    );
    expect(screen.getByRole('status')).toHaveTextContent(/Works once, for [12]:\d\d/);
    const openNow = await screen.findByRole('list', { name: 'Locks you may open now' });
    expect(within(openNow).getByRole('link', { name: 'Front door' })).toHaveAttribute(
      'href',
      '/user/locks/d1',
    );
    expect(within(openNow).queryByText('Bike room')).not.toBeInTheDocument();

    await setupUser().click(screen.getByRole('button', { name: 'New code' }));
    await vi.waitFor(() => expect(issued).toHaveBeenCalledTimes(2));
  });

  it('does not list a lock that never connected as a place the code opens, and says why', async () => {
    setup({
      [`GET user/${userId}/accessTime`]: () =>
        json({
          at: '2026-11-23T11:00:00.000Z',
          locks: [lock('d1', 'Front door', true), lock('d3', 'Store room', true, null)],
        }),
    });
    const openNow = await screen.findByRole('list', { name: 'Locks you may open now' });
    expect(within(openNow).queryByText('Store room')).not.toBeInTheDocument();
    const notYet = screen.getByRole('list', { name: 'Locks it cannot open yet' });
    expect(notYet).toHaveTextContent('Store room (never connected: the QR cannot open it until it connects)');
  });

  it('says when no lock lets them in now', async () => {
    setup({
      [`GET user/${userId}/accessTime`]: () =>
        json({ at: '2026-11-23T11:00:00.000Z', locks: [lock('d2', 'Bike room', false)] }),
    });
    expect(await screen.findByText(/None of your locks lets you in right now/)).toBeInTheDocument();
  });

  it('shows an error with a retry when no code can be made', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup({ 'POST user/qr': () => apiError(500, 'internal', 'Boom') });
    expect(await screen.findByText('Could not make your QR code')).toBeInTheDocument();
  });

  it('renews a code 20 s before it expires, and never sooner than in 5 s', () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    const at = (seconds: number) => ({
      ...qrAnswer(0),
      expiresAt: new Date(now + seconds * 1000).toISOString(),
    });
    expect(renewalDelayMs(at(120), now)).toBe(100_000);
    expect(renewalDelayMs(at(10), now)).toBe(5_000);
  });
});

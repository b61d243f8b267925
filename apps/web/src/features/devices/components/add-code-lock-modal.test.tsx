import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json } from '@/testing/fetch-mock';
import { deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

describe('Add code lock', () => {
  it('adds a code lock with its master code, showing a server rule on the field, then its secret once', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    storage.setAuthToken(validToken());
    const created = deviceFixture({ _id: 'device-9', name: 'Storeroom', serial: null, lastSeenAt: null });
    let attempts = 0;
    const { calls } = renderApp('/app/device', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/devices': () => json({ items: [deviceFixture()], total: 1 }),
      'GET portal/device/battery/low': () => json([]),
      'POST device/codelock/add': () => {
        attempts += 1;
        return attempts === 1
          ? apiError(400, 'validation', 'Invalid request', [
              { path: 'body.code', message: 'is too easy to guess' },
            ])
          : json({ device: created, deviceSecret: 'k3y-ABC' }, 201);
      },
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Add code lock' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add code lock' });
    expect(within(dialog).getByRole('combobox', { name: /^Time zone/ })).toHaveValue('America/New_York');

    await user.type(within(dialog).getByLabelText(/^Name/), 'Storeroom');
    await user.type(within(dialog).getByLabelText(/^Master code/), '12');
    await user.click(within(dialog).getByRole('button', { name: 'Add code lock' }));
    expect(await within(dialog).findByText('Master code must be 4 to 8 digits')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.type(within(dialog).getByLabelText(/^Master code/), 'x34');
    expect(within(dialog).getByLabelText(/^Master code/)).toHaveValue('1234');
    await user.click(within(dialog).getByRole('button', { name: 'Add code lock' }));
    expect(await within(dialog).findByText('Master code is too easy to guess')).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText(/^Master code/));
    await user.type(within(dialog).getByLabelText(/^Master code/), '80417');
    await user.click(within(dialog).getByRole('button', { name: 'Add code lock' }));
    const secret = await screen.findByRole('dialog', { name: 'Connect Storeroom' });
    expect(within(secret).getByText('k3y-ABC')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').at(-1)!.body).toEqual({
      name: 'Storeroom',
      code: '80417',
      timeZone: 'America/New_York',
    });
    await user.click(within(secret).getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(screen.queryByText('k3y-ABC')).not.toBeInTheDocument());
  }, 20_000);
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const LOCKS = [
  deviceFixture({ _id: 'd-front', name: 'Front door' }),
  deviceFixture({ _id: 'd-back', name: 'Back door' }),
  deviceFixture({ _id: 'd-shed', name: 'Garden shed' }),
];

describe('the lock list’s bulk bar', () => {
  it('opens a new lockout with the chosen locks already in it', async () => {
    storage.setAuthToken(validToken());
    const { router, calls } = renderApp('/app/device', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/devices': () => json({ items: LOCKS, total: LOCKS.length }),
      'GET portal/devices/lowBattery': () => json([]),
      'POST portal/lockout': () =>
        json({
          _id: 'lo-1',
          name: 'Storm',
          from: '2026-12-01T10:00:00.000Z',
          until: null,
          exemptAdmins: false,
          devices: LOCKS.slice(0, 2).map(({ _id, name }) => ({ _id, name })),
          active: false,
          createdAt: '2026-11-27T10:00:00.000Z',
        }),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('checkbox', { name: 'Choose Front door' }));
    await user.click(screen.getByRole('checkbox', { name: 'Choose Back door' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(bar).toHaveTextContent('2 locks chosen');
    await user.click(within(bar).getByRole('button', { name: 'Lock out…' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/app/lockout/edit/new'));
    expect(router.state.location.search).toBe('?locks=d-front%2Cd-back');
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Storm');
    await user.click(screen.getByRole('switch', { name: 'No end' }));
    await user.click(screen.getByRole('button', { name: 'Create lockout' }));
    await waitFor(() => expect(calls.some((c) => c.path === 'portal/lockout')).toBe(true));
    const body = calls.find((c) => c.path === 'portal/lockout')!.body as { deviceIds: string[] };
    expect(body.deviceIds).toEqual(['d-front', 'd-back']);
  });
});

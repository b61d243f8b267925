import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

function setup(devices: MockHandler) {
  storage.setAuthToken(validToken());
  return renderApp('/app/offline', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/devices': devices,
  });
}

const params = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

describe('OfflineDevicesPage', () => {
  it('lists the offline locks, the longest silent first, and sorts by name', async () => {
    const { calls } = setup(() =>
      json({
        items: [
          deviceFixture({
            _id: 'device-2',
            name: 'Back gate',
            online: false,
            lastSeenAt: null,
            battery: null,
          }),
          deviceFixture({
            online: false,
            lastSeenAt: new Date(Date.now() - 3 * 24 * 3600 * 1000).toISOString(),
            battery: 12,
          }),
        ],
        total: 2,
      }),
    );
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Back gate');
    expect(rows[0]).toHaveTextContent('Never connected');
    expect(within(rows[0]!).getByRole('link', { name: 'Back gate' })).toHaveAttribute(
      'href',
      '/app/device/device-2',
    );
    expect(rows[1]).toHaveTextContent('Last seen 3 days ago');
    expect(rows[1]).toHaveTextContent('12%');
    expect(params(calls.find((c) => c.path === 'portal/devices')!.url)).toMatchObject({
      filterBy: 'online',
      filterValue: 'false',
      sortBy: 'lastSeenAt',
      descending: 'false',
    });

    await setupUser().click(within(table).getByRole('button', { name: 'Name' }));
    await vi.waitFor(() =>
      expect(params(calls.filter((c) => c.path === 'portal/devices').at(-1)!.url)).toMatchObject({
        sortBy: 'name',
        filterBy: 'online',
      }),
    );
  });

  it('says when all locks are online', async () => {
    setup(() => json({ items: [], total: 0 }));
    expect(await screen.findByRole('heading', { name: 'All locks are online' })).toBeInTheDocument();
  });

  it('shows an error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup(() => apiError(500, 'internal', 'Boom'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the offline locks');
  });
});

import type { SyncCenterItem } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler, type RecordedCall } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const lock = (overrides: Partial<SyncCenterItem>): SyncCenterItem => ({
  _id: 'device-1',
  name: 'Front door',
  online: true,
  lastSeenAt: '2026-11-23T10:00:00.000Z',
  desiredVersion: 4,
  confirmedVersion: 4,
  pendingCount: 0,
  rejectedCount: 0,
  state: 'in_sync',
  ...overrides,
});

function setup(routes: Record<string, MockHandler> = {}) {
  storage.setAuthToken(validToken());
  return renderApp('/sync/center', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/sync': (call: RecordedCall) => {
      const state = new URL(call.url, 'http://x').searchParams.get('filterValue');
      const items = [
        lock({}),
        lock({ _id: 'device-2', name: 'Bike room', state: 'failing', rejectedCount: 2, confirmedVersion: 3 }),
        lock({
          _id: 'device-3',
          name: 'Cellar',
          state: 'never_connected',
          lastSeenAt: null,
          confirmedVersion: null,
        }),
      ].filter((item) => !state || item.state === state);
      return json({ items, total: items.length });
    },
    ...routes,
  });
}

describe('SyncCenterPage', () => {
  it('lists every lock with its sync state, and filters by state', async () => {
    const { calls } = setup();
    const table = await screen.findByRole('table', { name: 'Locks and their credential sync' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/Front door.*In sync.*v4, the latest.*None/),
      expect.stringMatching(/Bike room.*Refused entries.*v3 of v4.*2 refused/),
      expect.stringMatching(/Cellar.*Never connected.*None yet of v4.*Never/),
    ]);
    expect(within(rows[1]!).getByRole('link', { name: 'Bike room' })).toHaveAttribute(
      'href',
      '/app/device/device-2?tab=sync',
    );
    // It is in the admin navigation.
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toHaveTextContent('Sync center');

    const user = setupUser();
    await user.click(screen.getByRole('combobox', { name: 'State' }));
    await user.click(await screen.findByRole('option', { name: 'Refused entries' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    const last = new URL(calls.filter((c) => c.path === 'portal/sync').at(-1)!.url, 'http://x').searchParams;
    expect(Object.fromEntries(last)).toMatchObject({ filterBy: 'state', filterValue: 'failing' });
  });

  it('shows an error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup({ 'GET portal/sync': () => apiError(500, 'internal', 'Boom') });
    expect(await screen.findByText('Could not load the sync center')).toBeInTheDocument();
  });
});

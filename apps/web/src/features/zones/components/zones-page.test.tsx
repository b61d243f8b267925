import type { Zone } from '@latchkey/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const zone = (over: Partial<Zone>): Zone => ({
  _id: 'z1',
  name: 'Campus',
  description: '',
  timeZone: 'Europe/Berlin',
  parentId: null,
  depth: 1,
  lockCount: 1,
  totalLockCount: 3,
  otherTimeZoneCount: 0,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...over,
});

describe('ZonesPage', () => {
  it(
    'lists zones as a tree with their locks and creates a floor inside a building',
    { timeout: 90_000 },
    async () => {
      storage.setAuthToken(validToken());
      const campus = zone({});
      const hall = zone({
        _id: 'z2',
        name: 'Hall A',
        parentId: 'z1',
        depth: 2,
        lockCount: 2,
        totalLockCount: 2,
      });
      const { calls } = renderApp('/app/zones', {
        'GET auth': () => json(sessionFixture(['admin'])),
        'GET portal/zones': () => json([campus, hall]),
        'POST portal/zone': () => json(zone({ _id: 'z3', name: 'Floor 1', parentId: 'z2', depth: 3 }), 201),
        'GET portal/zone/z3': () => json(zone({ _id: 'z3', name: 'Floor 1', parentId: 'z2', depth: 3 })),
        'GET zone/z3/devices': () => json([]),
        'GET zone/z3/possibleDevices': () => json([]),
      });
      const table = await screen.findByRole('table', { name: 'Zones' }, { timeout: 15_000 });
      expect(within(table).getByRole('link', { name: 'Hall A' })).toBeInTheDocument();
      expect(within(table).getByText('3 locks with its sub-zones')).toBeInTheDocument();

      const user = setupUser();
      await user.click(screen.getAllByRole('button', { name: 'New zone' })[0]!);
      const dialog = await screen.findByRole('dialog', { name: 'New zone' });
      await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Floor 1');
      await user.click(within(dialog).getAllByLabelText(/^Part of/)[0]!);
      await user.click(await screen.findByRole('option', { name: '— Hall A' }));
      await user.click(within(dialog).getByRole('button', { name: 'Create zone' }));
      await screen.findByRole('heading', { level: 1, name: 'Floor 1' }, { timeout: 15_000 });
      const posted = calls.find((c) => c.method === 'POST' && c.path === 'portal/zone');
      expect(posted?.body).toMatchObject({ name: 'Floor 1', parentId: 'z2', timeZone: 'America/New_York' });
    },
  );
});

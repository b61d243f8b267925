import type { Key } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { memberFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const grace = { _id: 'user-2', email: 'grace@example.com', name: 'Grace Hopper' };

function keyFixture(overrides: Partial<Key> = {}): Key {
  return {
    _id: 'key-1',
    name: 'Main entrance',
    type: 'physical',
    number: 'A-017',
    holder: grace,
    devices: [{ _id: 'device-1', name: 'Front door' }],
    validFrom: null,
    validUntil: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function setup(routes: Record<string, MockHandler>) {
  storage.setAuthToken(validToken());
  const member = memberFixture();
  return renderApp(`/app/user/${member._id}`, {
    'GET auth': () => json(sessionFixture(['admin'])),
    [`GET portal/user/${member._id}`]: () => json({ member, accessCode: null }),
    [`GET user/${member._id}/devices`]: () => json([]),
    [`GET user/${member._id}/rfids`]: () => json([]),
    [`GET user/${member._id}/fingerprints`]: () => json([]),
    'GET portal/devices': () => json({ items: [], total: 0 }),
    ...routes,
  });
}

describe('MemberKeysCard', () => {
  it('lists the keys a person holds, each linking to the key', async () => {
    setup({
      'GET user/user-2/keys': () =>
        json([
          keyFixture(),
          keyFixture({
            _id: 'key-2',
            name: 'Old badge',
            type: 'digital',
            number: null,
            validUntil: '2020-01-01T00:00:00.000Z',
          }),
        ]),
      'GET portal/keys': () => json({ items: [], total: 0 }),
    });
    const list = await screen.findByRole('list', { name: 'Their keys' });
    expect(within(list).getByRole('link', { name: 'Main entrance' })).toHaveAttribute(
      'href',
      '/app/keys/key-1',
    );
    expect(within(list).getByText('No. A-017 · 1 lock')).toBeInTheDocument();
    expect(within(list).getByText('Expired')).toBeInTheDocument();
    const card = screen.getByRole('region', { name: 'Keys' });
    expect(within(card).getByText(/Every key has a holder/)).toBeInTheDocument();
  });

  it('shows a failed load with a retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    setup({
      'GET user/user-2/keys': () => {
        if (fail) {
          fail = false;
          return apiError(403, 'forbidden', 'Not allowed here');
        }
        return json([]);
      },
      'GET portal/keys': () => json({ items: [], total: 0 }),
    });
    const card = await screen.findByRole('region', { name: 'Keys' });
    const alert = await within(card).findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the keys');
    await setupUser().click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(card).findByText('No keys')).toBeInTheDocument();
  });

  it('hands over a key nobody holds', async () => {
    let held: Key[] = [];
    const free = keyFixture({ _id: 'key-3', name: 'Garage', number: 'G-1', holder: null });
    const { calls } = setup({
      'GET user/user-2/keys': () => json(held),
      'GET portal/keys': () =>
        json({
          items: [keyFixture({ holder: { ...grace, _id: 'user-9', name: 'Someone' } }), free],
          total: 2,
        }),
      'PUT keys/key-3/user/user-2': () => {
        held = [{ ...free, holder: grace }];
        return json(held[0]);
      },
    });
    const user = setupUser();
    const card = await screen.findByRole('region', { name: 'Keys' });
    expect(await within(card).findByText('No keys')).toBeInTheDocument();
    await user.click(within(card).getByLabelText('Hand over a key', { selector: 'input' }));
    // Keys someone holds are not offered.
    expect(await screen.findByRole('option', { name: 'Garage (No. G-1)' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /Main entrance/ })).toBeNull();
    await user.click(screen.getByRole('option', { name: 'Garage (No. G-1)' }));
    await user.click(within(card).getByRole('button', { name: 'Hand over' }));
    const list = await within(card).findByRole('list', { name: 'Their keys' });
    expect(within(list).getByRole('link', { name: 'Garage' })).toHaveAttribute('href', '/app/keys/key-3');
    // The notifications layer loads with the first notification.
    expect(await screen.findByText('Grace Hopper now holds Garage.')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
  });
});

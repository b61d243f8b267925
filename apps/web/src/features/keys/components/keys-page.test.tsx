import type { Key, ScopedUser } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler, type RecordedCall } from '@/testing/fetch-mock';
import { deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';
import { dateTimeFields, setDateTime } from '@/testing/date-time';

const grace = { _id: 'user-2', email: 'grace@example.com', name: 'Grace Hopper' };

function keyFixture(overrides: Partial<Key> = {}): Key {
  return {
    _id: 'key-1',
    name: 'Main entrance',
    type: 'physical',
    number: 'A-017',
    holder: grace,
    devices: [
      { _id: 'device-1', name: 'Front door' },
      { _id: 'device-2', name: 'Back gate' },
    ],
    validFrom: null,
    validUntil: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const scoped: ScopedUser[] = [
  { _id: 'user-2', email: 'grace@example.com', name: 'Grace Hopper', role: 'user', status: 'active' },
  { _id: 'user-3', email: 'alan@example.com', name: 'Alan Turing', role: 'user', status: 'active' },
];

function setup(keys: MockHandler, routes: Record<string, MockHandler> = {}, path = '/app/keys') {
  storage.setAuthToken(validToken());
  return renderApp(path, {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/keys': keys,
    'GET portal/scopedUsers': () => json(scoped),
    'GET portal/devices': () =>
      json({ items: [deviceFixture(), deviceFixture({ _id: 'device-2', name: 'Back gate' })], total: 2 }),
    ...routes,
  });
}

const query = (call: RecordedCall) => new URL(call.url, 'http://x').searchParams;

describe('KeysPage', () => {
  it("creates a key whose validity is typed on the chosen lock's clock", async () => {
    const bodies: unknown[] = [];
    setup(() => json({ items: [], total: 0 }), {
      'GET portal/devices': () =>
        json({
          items: [deviceFixture({ _id: 'device-3', name: 'Lisbon flat', timeZone: 'Europe/Lisbon' })],
          total: 1,
        }),
      'POST portal/keys': (call) => {
        bodies.push(call.body);
        return json(keyFixture({ _id: 'key-9', name: 'Flat key', type: 'digital', number: null }), 201);
      },
    });
    const user = setupUser();
    await user.click((await screen.findAllByRole('button', { name: 'New key' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New key' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Flat key');
    await user.click(within(dialog).getByText('Digital'));
    const from = dateTimeFields('Valid from', dialog).date;
    // No lock chosen yet: the portal's clock (sessionFixture: America/New_York).
    expect(from).toHaveAccessibleDescription("Optional, on the portal's clock (America/New_York).");
    await user.click(within(dialog).getByLabelText(/^Locks/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Lisbon flat' }));
    expect(from).toHaveAccessibleDescription("Optional, on the lock's clock (Europe/Lisbon).");
    // Lisbon is on summer time (UTC+1) in July: 09:00 there is 08:00 UTC.
    setDateTime('Valid from', '2026-07-01T09:00', dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({
      deviceIds: ['device-3'],
      validFrom: '2026-07-01T08:00:00.000Z',
      validUntil: null,
    });
  });

  it('lists keys with type, number, holder and locks', async () => {
    const { calls } = setup(() =>
      json({
        items: [
          keyFixture(),
          keyFixture({
            _id: 'key-2',
            name: 'Staff app',
            type: 'digital',
            number: null,
            holder: null,
            devices: [],
          }),
        ],
        total: 2,
      }),
    );
    const link = await screen.findByRole('link', { name: 'Main entrance' });
    expect(link).toHaveAttribute('href', '/app/keys/key-1');
    const row = link.closest('tr')!;
    expect(within(row).getAllByText('Physical').length).toBeGreaterThan(0);
    expect(within(row).getAllByText('A-017').length).toBeGreaterThan(0);
    expect(within(row).getAllByRole('link', { name: 'Grace Hopper' })[0]).toHaveAttribute(
      'href',
      '/app/user/user-2',
    );
    expect(within(row).getByText('2 locks')).toBeInTheDocument();
    const digital = screen.getByRole('link', { name: 'Staff app' }).closest('tr')!;
    expect(within(digital).getAllByText('Digital').length).toBeGreaterThan(0);
    expect(within(digital).getAllByText('Nobody').length).toBeGreaterThan(0);
    expect(screen.getByText('1–2 of 2 keys')).toBeInTheDocument();
    const call = calls.find((c) => c.path === 'portal/keys')!;
    expect(query(call).get('sortBy')).toBe('name');
  });

  it('invites the first key when there is none', async () => {
    setup(() => json({ items: [], total: 0 }));
    expect(await screen.findByRole('heading', { name: 'No keys yet' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'New key' })).toHaveLength(2);
  });

  it('filters by type through the URL and offers a way back from no match', async () => {
    const { calls, router } = setup(
      () => json({ items: [], total: 0 }),
      {},
      '/app/keys?type=digital&sort=-number',
    );
    expect(await screen.findByRole('heading', { name: 'No keys match' })).toBeInTheDocument();
    const params = query(calls.find((c) => c.path === 'portal/keys')!);
    expect(params.get('filterBy')).toBe('type');
    expect(params.get('filterValue')).toBe('digital');
    expect(params.get('sortBy')).toBe('number');
    expect(params.get('descending')).toBe('true');
    await setupUser().click(screen.getByRole('button', { name: 'Show all keys' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=-number'));
  });

  it('shows a failed load with a retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    setup(() => {
      if (fail) {
        fail = false;
        return apiError(403, 'forbidden', 'Not allowed here');
      }
      return json({ items: [keyFixture()], total: 1 });
    });
    // The failed load's own alert (a notification left by an earlier test may be an alert too).
    const alert = (await screen.findByText('Could not load the keys')).closest<HTMLElement>(
      '[role="alert"]',
    )!;
    await setupUser().click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Main entrance' })).toBeInTheDocument();
  });

  it('creates a key: the number is required, a taken number (409) and a 400 detail land on their fields', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const bodies: unknown[] = [];
    setup(() => json({ items: [], total: 0 }), {
      'POST portal/keys': (call) => {
        bodies.push(call.body);
        if (bodies.length === 1)
          return apiError(409, 'conflict', 'A key with this number is already in use in this portal');
        if (bodies.length === 2)
          return apiError(400, 'bad_request', 'name is too long', [
            { path: 'body.name', message: 'is not allowed here' },
          ]);
        return json(keyFixture({ _id: 'key-9', name: 'Garage' }), 201);
      },
    });
    const user = setupUser();
    await user.click((await screen.findAllByRole('button', { name: 'New key' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New key' });
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Number is required for a physical key')).toBeInTheDocument();

    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    await user.type(name, 'Garage');
    // Escape on a filled form asks first (FormModal); "Keep editing" keeps it.
    await user.keyboard('{Escape}');
    const question = await within(dialog).findByRole('alertdialog', { name: 'Discard changes?' });
    await user.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('Garage');
    const number = within(dialog).getByRole('textbox', { name: /^Number/ });
    await user.type(number, 'A-017');
    // Holder: typing asks the server.
    await user.click(within(dialog).getByLabelText(/^Holder/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: /Alan Turing/ }));
    // Locks.
    await user.click(within(dialog).getByLabelText(/^Locks/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Back gate' }));

    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    await waitFor(() =>
      expect(number).toHaveAccessibleDescription(
        expect.stringContaining('A key with this number is already in use in this portal'),
      ),
    );
    expect(bodies[0]).toEqual({
      name: 'Garage',
      type: 'physical',
      number: 'A-017',
      userId: 'user-3',
      deviceIds: ['device-2'],
      validFrom: null,
      validUntil: null,
    });

    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    await waitFor(() =>
      expect(name).toHaveAccessibleDescription(expect.stringContaining('Name is not allowed here')),
    );

    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('Key created')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('creates a digital key without a number', async () => {
    const bodies: unknown[] = [];
    setup(() => json({ items: [], total: 0 }), {
      'POST portal/keys': (call) => {
        bodies.push(call.body);
        return json(
          keyFixture({ _id: 'key-9', name: 'Phone', type: 'digital', number: null, holder: null }),
          201,
        );
      },
    });
    const user = setupUser();
    await user.click((await screen.findAllByRole('button', { name: 'New key' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New key' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Phone');
    await user.click(within(dialog).getByText('Digital'));
    expect(within(dialog).queryByRole('textbox', { name: /^Number/ })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Create key' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({
      name: 'Phone',
      type: 'digital',
      number: null,
      userId: null,
      deviceIds: [],
    });
  });
});

import type { AuditEntry, Key, ScopedUser } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { auditFixture, deviceEventFixture, deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';
import { dateTimeFields, dateTimeValue, setDateTime } from '@/testing/date-time';

const grace = { _id: 'user-2', email: 'grace@example.com', name: 'Grace Hopper' };
const alan = { _id: 'user-3', email: 'alan@example.com', name: 'Alan Turing' };

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

const scoped: ScopedUser[] = [
  { ...grace, role: 'user', status: 'active' },
  { ...alan, role: 'user', status: 'active' },
];

const history = (key: Key): AuditEntry[] => [
  auditFixture({
    _id: 'audit-2',
    action: 'key.hand_over',
    entityType: 'key',
    entityId: key._id,
    before: { ...key, holder: alan },
    after: key,
    createdAt: '2026-02-01T10:00:00.000Z',
  }),
  auditFixture({
    _id: 'audit-1',
    action: 'key.create',
    entityType: 'key',
    entityId: key._id,
    before: null,
    after: { ...key, holder: alan },
    createdAt: '2026-01-01T00:00:00.000Z',
  }),
];

function setup(routes: Record<string, MockHandler> = {}, initial = keyFixture()) {
  storage.setAuthToken(validToken());
  let key = initial;
  const api = renderApp(`/app/keys/${initial._id}`, {
    'GET auth': () => json(sessionFixture(['admin'])),
    [`GET portal/keys/${initial._id}`]: () => json(key),
    [`GET keys/${initial._id}/history`]: () =>
      json({
        items: [
          {
            source: 'event',
            at: '2026-03-01T08:00:00.000Z',
            event: deviceEventFixture({
              _id: 'event-1',
              type: 'unlock',
              method: 'key',
              credentialId: initial._id,
              user: { _id: 'user-2', name: 'Grace Hopper' },
              occurredAt: '2026-03-01T08:00:00.000Z',
            }),
          },
          ...history(initial).map((change) => ({ source: 'change', at: change.createdAt, change })),
        ],
        nextBefore: null,
      }),
    'GET portal/scopedUsers': () => json(scoped),
    'GET portal/devices': () =>
      json({ items: [deviceFixture(), deviceFixture({ _id: 'device-2', name: 'Back gate' })], total: 2 }),
    'GET portal/keys': () => json({ items: [], total: 0 }),
    ...routes,
  });
  return { ...api, setKey: (next: Key) => (key = next) };
}

describe('KeyPage', () => {
  it('shows the key, its holder, locks and history in words', async () => {
    setup();
    expect(await screen.findByRole('heading', { level: 1, name: 'Main entrance' })).toBeInTheDocument();
    expect(screen.getByText(/No\. A-017 · Added/)).toBeInTheDocument();
    const holder = screen.getByRole('region', { name: 'Holder' });
    expect(within(holder).getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute(
      'href',
      '/app/user/user-2',
    );
    const locks = screen.getByRole('list', { name: 'Linked locks' });
    expect(within(locks).getByRole('link', { name: 'Front door' })).toHaveAttribute(
      'href',
      '/app/device/device-1',
    );
    const table = await screen.findByRole('table', { name: 'Key history' });
    expect(within(table).getByText('Front door unlocked by Grace Hopper with a key')).toBeInTheDocument();
    expect(within(table).getByText('Handed over')).toBeInTheDocument();
    expect(within(table).getByText('From Alan Turing to Grace Hopper')).toBeInTheDocument();
    expect(within(table).getByText('Created')).toBeInTheDocument();
    expect(within(table).getByText('Handed to Alan Turing; works at Front door')).toBeInTheDocument();
  });

  it('says so when the key does not exist', async () => {
    setup({ 'GET portal/keys/key-1': () => apiError(404, 'not_found', 'Key not found') });
    expect(await screen.findByRole('heading', { name: "This key doesn't exist" })).toBeInTheDocument();
  });

  it('saves the details, showing a taken number (409) on the number field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const bodies: unknown[] = [];
    const { setKey } = setup({
      'POST portal/keys/key-1': (call) => {
        bodies.push(call.body);
        if (bodies.length === 1)
          return apiError(409, 'conflict', 'A key with this number is already in use in this portal');
        const saved = keyFixture({ number: 'A-018' });
        setKey(saved);
        return json(saved);
      },
    });
    const user = setupUser();
    const form = await screen.findByRole('form', { name: 'Key details' });
    const number = within(form).getByRole('textbox', { name: /^Number/ });
    await user.clear(number);
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await within(form).findByText('Number is required for a physical key')).toBeInTheDocument();
    await user.type(number, 'A-018');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(number).toHaveAccessibleDescription(
        expect.stringContaining('A key with this number is already in use in this portal'),
      ),
    );
    expect(bodies[0]).toEqual({ name: 'Main entrance', number: 'A-018', validFrom: null, validUntil: null });
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Key saved')).toBeInTheDocument();
  });

  it("takes and shows its validity on its locks' clock, and says when they are in several zones", async () => {
    // The portal (sessionFixture) is in America/New_York; the key's lock in Tokyo, the browser
    // wherever the machine is: 09:00 typed is 09:00 in Tokyo (UTC+9), stored as 00:00 UTC.
    const bodies: unknown[] = [];
    const tokyo = keyFixture({
      devices: [{ _id: 'device-1', name: 'Front door', timeZone: 'Asia/Tokyo' }],
      validUntil: '2026-12-31T14:59:00.000Z',
    });
    const { setKey } = setup(
      {
        'POST portal/keys/key-1': (call) => {
          bodies.push(call.body);
          const saved = { ...tokyo, validFrom: '2026-12-01T00:00:00.000Z' };
          setKey(saved);
          return json(saved);
        },
      },
      tokyo,
    );
    const form = await screen.findByRole('form', { name: 'Key details' });
    expect(dateTimeValue('Valid until', form)).toBe('2026-12-31T23:59');
    expect(dateTimeFields('Valid until', form).time).toHaveAccessibleDescription(
      "Optional, on the lock's clock (Asia/Tokyo).",
    );
    setDateTime('Valid from', '2026-12-01T09:00', form);
    await setupUser().click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({
      name: 'Main entrance',
      number: 'A-017',
      validFrom: '2026-12-01T00:00:00.000Z',
      validUntil: '2026-12-31T14:59:00.000Z',
    });
  });

  it("puts a key for locks in several zones on the portal's clock, and says so", async () => {
    setup(
      {},
      keyFixture({
        devices: [
          { _id: 'device-1', name: 'Front door', timeZone: 'Asia/Tokyo' },
          { _id: 'device-2', name: 'Back gate', timeZone: 'Europe/Rome' },
        ],
        validFrom: '2026-12-01T14:00:00.000Z',
      }),
    );
    const form = await screen.findByRole('form', { name: 'Key details' });
    expect(dateTimeValue('Valid from', form)).toBe('2026-12-01T09:00');
    expect(dateTimeFields('Valid from', form).date).toHaveAccessibleDescription(
      "Optional, on the portal's clock (America/New_York).",
    );
    expect(
      within(form).getByText(
        "Its locks are in 2 time zones (Asia/Tokyo, Europe/Rome): the times are on the portal's clock and start and end at the same moment on each lock.",
      ),
    ).toBeInTheDocument();
  });

  it('hands the key over and records its return', async () => {
    const { calls, setKey } = setup({
      'PUT keys/key-1/user/user-3': () => {
        const saved = keyFixture({ holder: alan });
        setKey(saved);
        return json(saved);
      },
      'DELETE keys/key-1/user/user-3': () => {
        const saved = keyFixture({ holder: null });
        setKey(saved);
        return json(saved);
      },
    });
    const user = setupUser();
    const holder = await screen.findByRole('region', { name: 'Holder' });
    await user.click(within(holder).getByLabelText(/^Hand over to/, { selector: 'input' }));
    // The current holder is not offered.
    expect(await screen.findByRole('option', { name: /Alan Turing/ })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /Grace Hopper/ })).toBeNull();
    await user.click(screen.getByRole('option', { name: /Alan Turing/ }));
    await user.click(within(holder).getByRole('button', { name: 'Hand over' }));
    expect(await within(holder).findByRole('link', { name: 'Alan Turing' })).toBeInTheDocument();
    expect(screen.getByText('Main entrance is now with Alan Turing.')).toBeInTheDocument();

    await user.click(within(holder).getByRole('button', { name: 'Returned' }));
    expect(await within(holder).findByText('Nobody holds it.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE' && c.path === 'keys/key-1/user/user-3')).toHaveLength(1);
  });

  it('links a lock, and unlinks one only after confirming', async () => {
    const { calls, setKey } = setup({
      'PUT keys/key-1/device/device-2': () => {
        const saved = keyFixture({
          devices: [
            { _id: 'device-1', name: 'Front door' },
            { _id: 'device-2', name: 'Back gate' },
          ],
        });
        setKey(saved);
        return json(saved);
      },
      'DELETE keys/key-1/device/device-1': () => {
        const saved = keyFixture({ devices: [{ _id: 'device-2', name: 'Back gate' }] });
        setKey(saved);
        return json(saved);
      },
    });
    const user = setupUser();
    const locksCard = await screen.findByRole('region', { name: 'Locks' });
    await user.click(within(locksCard).getByLabelText('Link a lock', { selector: 'input' }));
    // A linked lock is not offered again.
    expect(await screen.findByRole('option', { name: 'Back gate' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Front door' })).toBeNull();
    await user.click(screen.getByRole('option', { name: 'Back gate' }));
    await user.click(within(locksCard).getByRole('button', { name: 'Link' }));
    const list = within(locksCard).getByRole('list', { name: 'Linked locks' });
    expect(await within(list).findByRole('link', { name: 'Back gate' })).toBeInTheDocument();

    await user.click(within(locksCard).getByRole('button', { name: 'Unlink Front door' }));
    let dialog = await screen.findByRole('dialog', { name: 'Unlink Front door?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(locksCard).getByRole('button', { name: 'Unlink Front door' }));
    dialog = await screen.findByRole('dialog', { name: 'Unlink Front door?' });
    await user.click(within(dialog).getByRole('button', { name: 'Unlink lock' }));
    await waitFor(() => expect(within(locksCard).queryByRole('link', { name: 'Front door' })).toBeNull());
  });

  it('retires the key only after confirming, then shows the list', async () => {
    const { calls, router } = setup({ 'DELETE portal/keys/key-1': () => json(undefined, 204) });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Retire key' }));
    let dialog = await screen.findByRole('dialog', { name: 'Retire Main entrance?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Retire key' }));
    dialog = await screen.findByRole('dialog', { name: 'Retire Main entrance?' });
    await user.click(within(dialog).getByRole('button', { name: 'Retire key' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/keys'));
    expect(await screen.findByText('Main entrance opens nothing any more.')).toBeInTheDocument();
  }, 20_000);
});

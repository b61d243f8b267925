import type { RfidCard } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { memberFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const fob: RfidCard = {
  _id: 'rfid-1',
  uid: '04A23B1C5D8000',
  name: 'Blue fob',
  holder: { _id: 'user-2', email: 'grace@example.com', name: 'Grace Hopper' },
  validFrom: null,
  validUntil: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

function setup(routes: Record<string, MockHandler>) {
  storage.setAuthToken(validToken());
  const member = memberFixture();
  return renderApp(`/app/user/${member._id}`, {
    'GET auth': () => json(sessionFixture(['admin'])),
    [`GET portal/user/${member._id}`]: () => json({ member, accessCode: null }),
    [`GET user/${member._id}/devices`]: () => json([]),
    'GET portal/devices': () => json({ items: [], total: 0 }),
    ...routes,
  });
}

describe('MemberCardsCard', () => {
  it('registers a card, showing a 409 on the UID field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let cards: RfidCard[] = [];
    const bodies: unknown[] = [];
    setup({
      'GET user/user-2/rfids': () => json(cards),
      'POST portal/rfid': (call) => {
        bodies.push(call.body);
        if (bodies.length === 1)
          return apiError(409, 'conflict', 'This card is already registered in this portal');
        cards = [fob];
        return json(fob, 201);
      },
    });
    const user = setupUser();
    expect(await screen.findByText('No cards yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Register a card' }));
    const dialog = await screen.findByRole('dialog', { name: 'Register a card for Grace Hopper' });
    const uid = within(dialog).getByRole('textbox', { name: /Card UID/ });

    await user.type(uid, 'zz');
    await user.click(within(dialog).getByRole('button', { name: 'Register card' }));
    expect(uid).toHaveAccessibleDescription(
      expect.stringContaining('Card UID must be a 4, 7 or 10 byte card UID'),
    );

    await user.clear(uid);
    await user.type(uid, '04:a2:3b:1c:5d:80:00');
    await user.type(within(dialog).getByRole('textbox', { name: /Label/ }), 'Blue fob');
    await user.click(within(dialog).getByRole('button', { name: 'Register card' }));
    await waitFor(() =>
      expect(uid).toHaveAccessibleDescription(
        expect.stringContaining('This card is already registered in this portal'),
      ),
    );
    expect(bodies[0]).toMatchObject({ uid: '04:a2:3b:1c:5d:80:00', name: 'Blue fob', userId: 'user-2' });

    await user.click(within(dialog).getByRole('button', { name: 'Register card' }));
    const list = await screen.findByRole('list', { name: 'Their cards' });
    expect(within(list).getByText('04 A2 3B 1C 5D 80 00')).toBeInTheDocument();
    expect(within(list).getByText('Valid: Always')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('revokes a card only after confirming', async () => {
    let cards = [fob];
    const { calls } = setup({
      'GET user/user-2/rfids': () => json(cards),
      'DELETE portal/rfid/rfid-1': () => {
        cards = [];
        return json(undefined, 204);
      },
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Revoke Blue fob' }));
    let dialog = await screen.findByRole('dialog', { name: 'Revoke Blue fob?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Revoke Blue fob' }));
    dialog = await screen.findByRole('dialog', { name: 'Revoke Blue fob?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke card' }));
    expect(await screen.findByText('No cards yet')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === 'portal/rfid/rfid-1')).toBe(true);
  });
});

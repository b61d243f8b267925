import type { RfidCard } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';
import { dateTimeFields, dateTimeValue, setDateTime } from '@/testing/date-time';

const card = (overrides: Partial<RfidCard> = {}): RfidCard => ({
  _id: 'rfid-1',
  uid: '04A23B1C',
  name: 'Blue fob',
  holder: { _id: 'user-2', email: 'grace@example.com', name: 'Grace Hopper' },
  validFrom: null,
  validUntil: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

function setup(routes: Record<string, MockHandler>, path = '/app/cards') {
  storage.setAuthToken(validToken());
  return renderApp(path, { 'GET auth': () => json(sessionFixture(['admin'])), ...routes });
}

const params = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

describe('CardsPage', () => {
  it('lists the cards with their holders and validity, newest first, and searches and sorts', async () => {
    const { calls } = setup({
      'GET portal/rfids': () =>
        json({
          items: [
            card(),
            card({
              _id: 'rfid-2',
              uid: '04112233445566',
              name: '',
              holder: null,
              validUntil: '2020-01-01T00:00:00.000Z',
            }),
          ],
          total: 2,
        }),
    });
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('04 A2 3B 1C');
    expect(rows[0]).toHaveTextContent('Blue fob');
    expect(within(rows[0]!).getAllByRole('link', { name: 'Grace Hopper' })[0]).toHaveAttribute(
      'href',
      '/app/user/user-2',
    );
    expect(rows[0]).toHaveTextContent('Always');
    expect(rows[1]).toHaveTextContent('Unlabelled');
    expect(rows[1]).toHaveTextContent('Nobody');
    expect(rows[1]).toHaveTextContent('Expired');
    expect(params(calls.find((c) => c.path === 'portal/rfids')!.url)).toMatchObject({
      sortBy: 'createdAt',
      descending: 'true',
    });

    const user = setupUser();
    await user.type(screen.getByRole('searchbox', { name: 'Search cards' }), 'grace');
    await waitFor(() =>
      expect(params(calls.filter((c) => c.path === 'portal/rfids').at(-1)!.url)).toMatchObject({
        search: 'grace',
      }),
    );
    await user.click(within(table).getByRole('button', { name: 'UID' }));
    await waitFor(() =>
      expect(params(calls.filter((c) => c.path === 'portal/rfids').at(-1)!.url)).toMatchObject({
        sortBy: 'uid',
        descending: 'false',
      }),
    );
  }, 20_000);

  it('invites registering cards on a person page when there are none', async () => {
    setup({ 'GET portal/rfids': () => json({ items: [], total: 0 }) });
    expect(await screen.findByRole('heading', { name: 'No cards yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to people' })).toHaveAttribute('href', '/app/user');
  });

  it('shows an error', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup({ 'GET portal/rfids': () => apiError(500, 'internal', 'Boom') });
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the cards');
  });

  it('edits a card, showing a server rule on the field it concerns', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let attempts = 0;
    const { calls } = setup({
      'GET portal/rfids': () => json({ items: [card()], total: 1 }),
      'GET portal/scopedUsers': () => json([]),
      'POST portal/rfid/rfid-1': (call) => {
        attempts += 1;
        return attempts === 1
          ? apiError(400, 'validation', 'Invalid request', [
              { path: 'body.userId', message: 'cannot hold cards while suspended' },
            ])
          : json(card({ name: (call.body as { name: string }).name }));
      },
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Edit the card Blue fob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the card “Blue fob”' });
    expect(within(dialog).getByRole('combobox', { name: /^Holder/ })).toHaveValue(
      'Grace Hopper (grace@example.com)',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save card' }));
    expect(await within(dialog).findByText('Holder cannot hold cards while suspended')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText(/^Label/), ' 2');
    // Escape on a changed form asks first (FormModal); "Keep editing" keeps what was typed.
    await user.keyboard('{Escape}');
    const question = await within(dialog).findByRole('alertdialog', { name: 'Discard changes?' });
    await user.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect(within(dialog).getByLabelText(/^Label/)).toHaveValue('Blue fob 2');
    await user.click(within(dialog).getByRole('button', { name: 'Save card' }));
    expect(await screen.findByText('Card saved')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').at(-1)!.body).toMatchObject({
      uid: '04A23B1C',
      name: 'Blue fob 2',
      userId: 'user-2',
    });
  }, 20_000);

  it("takes a card's validity on the portal's clock, whatever the browser's", async () => {
    const bodies: unknown[] = [];
    setup({
      'GET portal/rfids': () => json({ items: [card({ validUntil: '2026-12-01T05:00:00.000Z' })], total: 1 }),
      'GET portal/scopedUsers': () => json([]),
      'POST portal/rfid/rfid-1': (call) => {
        bodies.push(call.body);
        return json(card());
      },
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Edit the card Blue fob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the card “Blue fob”' });
    // The portal (sessionFixture) is in America/New_York: 05:00 UTC is midnight there.
    expect(dateTimeValue('Valid until', dialog)).toBe('2026-12-01T00:00');
    expect(dateTimeFields('Valid until', dialog).date).toHaveAccessibleDescription(
      "Optional, on the portal's clock (America/New_York).",
    );
    setDateTime('Valid from', '2026-11-20T09:00', dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Save card' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({
      validFrom: '2026-11-20T14:00:00.000Z',
      validUntil: '2026-12-01T05:00:00.000Z',
    });
  }, 20_000);

  it('revokes a card after confirming', async () => {
    let cards = [card()];
    const { calls } = setup({
      'GET portal/rfids': () => json({ items: cards, total: cards.length }),
      'DELETE portal/rfid/rfid-1': () => {
        cards = [];
        return json(undefined, 204);
      },
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Revoke the card Blue fob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the card?' });
    expect(dialog).toHaveTextContent('Blue fob (held by Grace Hopper) stops opening every lock at once.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Revoke the card Blue fob' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Revoke the card?' })).getByRole('button', {
        name: 'Revoke card',
      }),
    );
    expect(await screen.findByText('Card revoked')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No cards yet' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === 'portal/rfid/rfid-1')).toBe(true);
  });
});

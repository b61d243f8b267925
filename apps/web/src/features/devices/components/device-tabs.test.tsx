import type { Fingerprint, RfidCard } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { auditFixture, deviceEventFixture, deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

function setup(path: string, routes: Record<string, MockHandler> = {}) {
  storage.setAuthToken(validToken());
  return renderApp(path, {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/device/device-1': () => json(deviceFixture()),
    ...routes,
  });
}

const fingerprint = (overrides: Partial<Fingerprint> = {}): Fingerprint => ({
  _id: 'fp-1',
  name: '',
  finger: 'right-index',
  templateId: '17',
  holder: { _id: 'user-2', email: 'grace@example.com', name: 'Grace Hopper' },
  device: { _id: 'device-1', name: 'Front door' },
  validFrom: null,
  validUntil: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  ...overrides,
});

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

describe('the lock page tabs', () => {
  it('names each code without an account by its holder or stay and its kind, linking to the stay', async () => {
    const stay = { _id: 'stay-1', listingId: 'listing-1' };
    const marco = 'Stay guest: Marco Visitor, Dec 1 – Dec 5, 2026';
    setup('/app/device/device-1?tab=access', {
      'GET portal/device/device-1/access': () =>
        json({
          at: '2026-11-23T14:30:00.000Z',
          timeZone: 'America/New_York',
          localTime: 'Mon 2026-11-23 09:30',
          people: [],
          others: [
            {
              _id: 'c-1',
              holderType: 'company',
              name: 'Company code: Cleaning crew',
              kind: 'code',
              stay: null,
              canOpen: true,
              reason: null,
            },
            {
              _id: 'g-1',
              holderType: 'guest',
              name: marco,
              kind: 'code',
              stay,
              canOpen: false,
              reason: 'not_yet_valid',
            },
            {
              _id: 'g-2',
              holderType: 'guest',
              name: marco,
              kind: 'qr',
              stay,
              canOpen: false,
              reason: 'not_yet_valid',
            },
            {
              _id: 'g-3',
              holderType: 'guest',
              name: 'Guest: Sam Plumber',
              kind: 'code',
              stay: null,
              canOpen: false,
              reason: 'outside_schedule',
            },
            {
              _id: 'm-1',
              holderType: 'master',
              name: 'Master code',
              kind: 'code',
              stay: null,
              canOpen: true,
              reason: null,
            },
          ],
        }),
    });
    // The first screen of the file loads the lock page's code: more than a second on a busy machine.
    expect(
      await screen.findByText('Nobody has access to this lock', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Codes without an account' });
    const items = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.textContent);
    expect(items[0]).toHaveTextContent('Company code: Cleaning crew');
    expect(items[0]).toHaveTextContent('Can open');
    // The stay guest's code and QR code: one stay, two entries, each saying what it is.
    expect(items[1]).toHaveTextContent(`${marco}Code`);
    expect(items[2]).toHaveTextContent(`${marco}QR code`);
    for (const item of [items[1]!, items[2]!]) {
      expect(within(item).getByRole('link', { name: marco })).toHaveAttribute(
        'href',
        '/app/listing/listing-1/request/stay-1',
      );
      expect(item).toHaveTextContent('Not valid yet');
    }
    expect(items[3]).toHaveTextContent('Guest: Sam Plumber');
    expect(items[3]).toHaveTextContent('Outside their schedule');
    expect(within(items[3]!).queryByRole('link')).not.toBeInTheDocument();
    expect(items[4]).toHaveTextContent('Master code');
    expect(screen.getByText('2 of 5 can open')).toBeInTheDocument();
  });

  it('lists the fingerprints enrolled at the lock, each linking to its screen', async () => {
    setup('/app/device/device-1?tab=fingerprints', {
      'GET device/device-1/fingerprints': () =>
        json([
          fingerprint(),
          fingerprint({ _id: 'fp-2', name: 'Spare thumb', finger: 'left-thumb', holder: null }),
        ]),
    });
    const list = await screen.findByRole('list', { name: 'Fingerprints' });
    expect(within(list).getByRole('link', { name: 'Right index' })).toHaveAttribute(
      'href',
      '/app/fingerprint/fp-1',
    );
    expect(within(list).getByRole('link', { name: 'Spare thumb' })).toHaveAttribute(
      'href',
      '/app/fingerprint/fp-2',
    );
    expect(within(list).getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute(
      'href',
      '/app/user/user-2',
    );
    expect(within(list).getByText('Nobody holds it')).toBeInTheDocument();
  });

  it('says when no fingerprint is enrolled', async () => {
    setup('/app/device/device-1?tab=fingerprints', { 'GET device/device-1/fingerprints': () => json([]) });
    expect(await screen.findByText('No fingerprints at this lock')).toBeInTheDocument();
  });

  it("shows the lock's events and its admin changes, newest first", async () => {
    const { calls } = setup('/app/device/device-1?tab=history', {
      'GET portal/device/logs': () =>
        json({
          items: [
            deviceEventFixture(),
            deviceEventFixture({
              _id: 'event-2',
              type: 'denied',
              user: null,
              method: 'code',
              reason: 'unknown_credential',
            }),
          ],
          total: 2,
        }),
      'GET portal/audit': () => json({ items: [auditFixture()], total: 1 }),
    });
    const events = await screen.findByRole('list', { name: 'Lock events' });
    expect(within(events).getByText('Unlocked by Grace Hopper with a card')).toBeInTheDocument();
    expect(within(events).getByText('Refused an unknown code')).toBeInTheDocument();
    const changes = await screen.findByRole('list', { name: 'Admin changes' });
    expect(within(changes).getByText('Lock changed: Front door')).toBeInTheDocument();
    expect(within(changes).getByText(/by Ada Lovelace/)).toBeInTheDocument();

    const logs = new URL(calls.find((c) => c.path === 'portal/device/logs')!.url, 'http://x').searchParams;
    expect(Object.fromEntries(logs)).toMatchObject({
      filterBy: 'deviceId',
      filterValue: 'device-1',
      sortBy: 'occurredAt',
      descending: 'true',
    });
    const audit = new URL(calls.find((c) => c.path === 'portal/audit')!.url, 'http://x').searchParams;
    expect(Object.fromEntries(audit)).toMatchObject({ filterBy: 'deviceId', filterValue: 'device-1' });
  });

  it('says a connected lock has reported no events yet (not "once it is connected"), and shows errors', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup('/app/device/device-1?tab=history', {
      'GET portal/device/logs': () => json({ items: [], total: 0 }),
      'GET portal/audit': () => apiError(500, 'internal', 'Boom'),
    });
    expect(await screen.findByText('No lock events yet')).toBeInTheDocument();
    expect(screen.getByText(/^Front door has reported no events yet/)).toBeInTheDocument();
    expect(screen.queryByText(/once the lock is connected/)).not.toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the changes');
  });

  it('explains that events appear once a lock that never connected connects', async () => {
    setup('/app/device/device-1?tab=history', {
      'GET portal/device/device-1': () => json(deviceFixture({ online: false, lastSeenAt: null })),
      'GET portal/device/logs': () => json({ items: [], total: 0 }),
      'GET portal/audit': () => json({ items: [], total: 0 }),
    });
    expect(await screen.findByText(/^Events appear here once Front door connects/)).toBeInTheDocument();
  });

  it('edits a card that reaches the lock', async () => {
    let cards = [card()];
    const { calls } = setup('/app/device/device-1?tab=cards', {
      'GET device/device-1/rfids': () => json(cards),
      'GET portal/scopedUsers': () =>
        json([
          { _id: 'user-2', email: 'grace@example.com', name: 'Grace Hopper', role: 'user', status: 'active' },
          { _id: 'user-3', email: 'alan@example.com', name: 'Alan Turing', role: 'user', status: 'active' },
        ]),
      'POST portal/rfid/rfid-1': (call) => {
        const body = call.body as { name: string };
        cards = [
          card({
            name: body.name,
            holder: { _id: 'user-3', email: 'alan@example.com', name: 'Alan Turing' },
          }),
        ];
        return json(cards[0]);
      },
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Edit the card Blue fob' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the card “Blue fob”' });
    expect(within(dialog).getByLabelText(/^Card UID/)).toHaveValue('04 A2 3B 1C');
    expect(within(dialog).getByLabelText(/^Card UID/)).toHaveAttribute('readonly');
    await user.clear(within(dialog).getByLabelText(/^Label/));
    await user.type(within(dialog).getByLabelText(/^Label/), 'Red fob');
    await user.click(within(dialog).getByRole('combobox', { name: /^Holder/ }));
    await user.click(await screen.findByRole('option', { name: 'Alan Turing (alan@example.com)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save card' }));
    expect(await screen.findByText('Card saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      uid: '04A23B1C',
      name: 'Red fob',
      userId: 'user-3',
      validFrom: null,
      validUntil: null,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('link', { name: 'Alan Turing' })).toBeInTheDocument();
  }, 20_000);
});

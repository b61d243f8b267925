import type { Stay } from '@latchkey/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json, type RecordedCall } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const requested: Stay = {
  _id: 'stay-1',
  listingId: 'listing-1',
  listingTitle: 'Sea view flat',
  guestName: 'Ana Guest',
  guestEmail: 'ana@example.com',
  guestPhone: null,
  note: 'Late arrival',
  startDate: '2031-03-10',
  endDate: '2031-03-13',
  nights: 3,
  checkInTime: '15:00',
  checkOutTime: '11:00',
  timeZone: 'Europe/Lisbon',
  state: 'requested',
  source: 'request',
  reason: null,
  accessState: 'none',
  accessFrom: '2031-03-10T15:00:00.000Z',
  accessUntil: '2031-03-13T11:00:00.000Z',
  access: [],
  capacity: [
    // A Z-Wave lock that said it has 30 code slots: codes count against them.
    { deviceId: 'd1', name: 'Flat door', capacity: 30, counts: 'codes', used: 30, withStay: 32, fits: false },
    {
      deviceId: 'd2',
      name: 'Entrance',
      capacity: 1000,
      counts: 'entries',
      used: 12,
      withStay: 14,
      fits: true,
    },
  ],
  conflicts: [],
  quote: { nights: 3, nightly: 12000, total: 36000, currency: 'EUR' },
  landingPath: null,
  guestMailedAt: null,
  createdAt: '2031-03-01T10:00:00.000Z',
  decidedAt: null,
  updatedAt: '2031-03-01T10:00:00.000Z',
};

const approved: Stay = {
  ...requested,
  state: 'approved',
  accessState: 'waiting',
  capacity: [],
  landingPath: '/s?t=S1.stay-1.1.abc',
  access: [
    {
      _id: 'a1',
      holder: 'guest',
      name: 'Ana Guest',
      code: '482913',
      validFrom: '2031-03-10T15:00:00.000Z',
      validUntil: '2031-03-13T11:00:00.000Z',
      removed: false,
      locks: [
        { deviceId: 'd1', name: 'Flat door', state: 'confirmed', reason: null },
        { deviceId: 'd2', name: 'Entrance', state: 'sent', reason: null },
      ],
    },
  ],
};

/** The screen over a server whose stay becomes what an action answers. */
function setup(stay: Stay, onAction?: (call: RecordedCall) => Stay) {
  storage.setAuthToken(validToken());
  let current = stay;
  return renderApp('/app/listing/listing-1/request/stay-1', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET device/listing-1/request/stay-1': () => json(current),
    ...(onAction && {
      'POST device/listing-1/request/stay-1': (call) => {
        current = onAction(call);
        return json(current);
      },
    }),
  });
}

describe('StayPage (share-lock approval)', () => {
  it("shows check-in, check-out and access on the locks' one clock, as the guest's mail words it", async () => {
    setup(requested);
    expect(await screen.findByRole('heading', { name: 'Request from Ana Guest' })).toBeInTheDocument();
    // 24-hour times with the locks' zone, the same on every line (issue 19, item 4); the access
    // line is the mail's (one-clock-mail.test.ts on the server), whatever the browser's zone.
    expect(screen.getByText('15:00 Europe/Lisbon')).toBeInTheDocument();
    expect(screen.getByText('11:00 Europe/Lisbon')).toBeInTheDocument();
    expect(
      screen.getByText('Mon, Mar 10, 2031, 15:00 – Thu, Mar 13, 2031, 11:00 Europe/Lisbon'),
    ).toBeInTheDocument();
  });

  it('says a guest asked for a requested stay', async () => {
    setup(requested);
    expect(await screen.findByText('Asked')).toBeInTheDocument();
    expect(screen.getByText(/through the public request page$/)).toBeInTheDocument();
  });

  it('says an imported calendar brought a stay, not that anyone asked', async () => {
    setup({ ...requested, source: 'ical' });
    expect(await screen.findByText('Imported')).toBeInTheDocument();
    expect(screen.getByText(/from a calendar$/)).toBeInTheDocument();
    expect(screen.queryByText('Asked')).not.toBeInTheDocument();
  });

  it('warns that a lock is full, and approves with the dates shown', async () => {
    const actions: unknown[] = [];
    setup(requested, (call) => {
      actions.push(call.body);
      return approved;
    });
    const user = setupUser();
    expect(await screen.findByRole('heading', { name: 'Request from Ana Guest' })).toBeInTheDocument();
    expect(screen.getByRole('alert', { name: 'A lock is full' })).toHaveTextContent('Flat door');
    // The total the request page quoted the guest, beside the answer and on the stay's card.
    expect(screen.getByText('3 nights × €120.00 = €360.00')).toBeInTheDocument();
    expect(screen.getByText('3 nights × €120.00 = €360.00 (not paid through Latchkey)')).toBeInTheDocument();
    const room = screen.getByRole('table', { name: 'Room on each lock' });
    expect(within(room).getByText('32 of 30 codes: does not fit')).toBeInTheDocument();
    expect(within(room).getByText('14 of 1000')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('heading', { name: "Ana Guest's stay" })).toBeInTheDocument();
    expect(actions).toEqual([
      {
        action: 'approve',
        startDate: '2031-03-10',
        endDate: '2031-03-13',
        checkInTime: '15:00',
        checkOutTime: '11:00',
      },
    ]);
  });

  it('shows a stay waiting for a lock, with the code and each lock’s state', async () => {
    setup(approved);
    expect(await screen.findByRole('heading', { name: "Ana Guest's stay" })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Waiting for the lock');
    expect(screen.getByText('482913')).toBeInTheDocument();
    expect(screen.getByText('On the lock')).toBeInTheDocument();
    expect(screen.getByText('Sent, waiting for the lock')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /The guest's page/ })).toHaveValue(
      `${window.location.origin}/s?t=S1.stay-1.1.abc`,
    );
  });
});

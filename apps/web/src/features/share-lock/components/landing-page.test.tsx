import type { ShareLanding } from '@latchkey/shared';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json } from '@/testing/fetch-mock';
import { renderApp } from '@/testing/render-app';

const token = 'S1.stay-1.1.abcdefghijklmnopqrstuv';

const landing: ShareLanding = {
  kind: 'stay',
  listing: {
    _id: 'listing-1',
    title: 'Cliff cabin',
    address: '1 Cliff Road',
    checkInTime: '15:00',
    checkOutTime: '11:00',
    houseRules: '',
    timeZone: 'UTC',
    images: [],
    requestPath: null,
  },
  locks: [
    {
      name: 'Front door',
      text: 'Blue door',
      wifiName: 'cabin',
      wifiPassword: 'hunter22',
      parking: '',
      images: [],
    },
  ],
  stay: {
    guestName: 'Rita',
    startDate: '2031-02-01',
    endDate: '2031-02-04',
    checkInTime: '15:00',
    checkOutTime: '11:00',
    state: 'approved',
    accessState: 'none',
    accessFrom: '2031-02-01T15:00:00.000Z',
    accessUntil: '2031-02-04T11:00:00.000Z',
    code: null,
    qr: null,
    accountLinked: false,
    arrivalUntil: '2031-02-07T11:00:00.000Z',
    arrivalShown: true,
  },
};

// Issue 16, defect 4: a cancelled stay's link answers 410, and a past stay's link stops showing the
// way in; the page says so instead of "this link does not open anything" or empty doors.
describe('LandingPage (/s?t=…)', () => {
  it('says a cancelled stay’s link no longer works', async () => {
    renderApp(`/s?t=${token}`, {
      [`GET device/token/${token}`]: () => apiError(410, 'link_ended', 'This link no longer works'),
    });
    expect(await screen.findByText('This link no longer works')).toBeInTheDocument();
    expect(screen.queryByText(/Wi-Fi/)).not.toBeInTheDocument();
  });

  it('shows the way in during the stay, and says when it stopped after it', async () => {
    const first = renderApp(`/s?t=${token}`, { [`GET device/token/${token}`]: () => json(landing) });
    expect(await screen.findByText('hunter22')).toBeInTheDocument();
    first.unmount();
    // Another link (the page's queries are kept by link across renders).
    const past = 'S1.stay-2.1.abcdefghijklmnopqrstuv';
    renderApp(`/s?t=${past}`, {
      [`GET device/token/${past}`]: () =>
        json({
          ...landing,
          locks: [{ name: 'Front door', text: '', wifiName: '', wifiPassword: '', parking: '', images: [] }],
          stay: { ...landing.stay!, arrivalShown: false },
        }),
    });
    expect(
      await screen.findByText(/arrival instructions \(door, Wi-Fi, parking\) were shown until/),
    ).toBeInTheDocument();
    expect(screen.queryByText('No instructions for this door.')).not.toBeInTheDocument();
    expect(screen.getByText('1 Cliff Road')).toBeInTheDocument();
  });
});

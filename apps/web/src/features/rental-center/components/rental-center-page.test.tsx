import type { RentalCenter, RentalCenterStay } from '@latchkey/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

const arriving: RentalCenterStay = {
  _id: 'stay-1',
  listingId: 'listing-1',
  listingTitle: 'Harbour flat',
  guestName: 'Ana Arriving',
  startDate: '2031-03-10',
  endDate: '2031-03-13',
  nights: 3,
  checkInTime: '15:00',
  checkOutTime: '11:00',
  timeZone: 'Europe/Lisbon',
  state: 'approved',
  source: 'ical',
  feedName: 'Airbnb',
  accessState: 'waiting',
  locks: [
    { deviceId: 'd1', name: 'Flat door', state: 'confirmed', reason: null },
    { deviceId: 'd2', name: 'Entrance', state: 'rejected', reason: 'storage_full' },
  ],
  overlaps: true,
  createdAt: '2031-03-01T10:00:00.000Z',
};

const center: RentalCenter = {
  hosting: { portalId: 'portal-1', portalName: 'Harbor View', scope: 'admin' },
  listings: [
    {
      _id: 'listing-1',
      title: 'Harbour flat',
      timeZone: 'Europe/Lisbon',
      today: '2031-03-10',
      published: true,
      pendingRequests: 1,
      upcomingStays: 2,
      nextArrival: '2031-03-10',
      feeds: [
        {
          _id: 'f1',
          name: 'Airbnb',
          lastSuccessAt: '2031-03-09T10:00:00.000Z',
          lastError: 'The feed came back empty, but it had 4 events at the last good read.',
          lastErrorAt: '2031-03-10T09:00:00.000Z',
          lastWarning: null,
        },
      ],
    },
  ],
  arrivalsToday: [arriving],
  departuresToday: [],
  stayingNow: 1,
  pendingRequests: {
    total: 1,
    items: [
      {
        ...arriving,
        _id: 'stay-2',
        guestName: 'Pia Pending',
        state: 'requested',
        source: 'request',
        feedName: null,
        locks: [],
        overlaps: false,
      },
    ],
  },
  guestStays: [
    {
      _id: 'stay-9',
      listingTitle: 'Cliff cabin',
      startDate: '2031-02-01',
      endDate: '2031-02-04',
      checkInTime: '15:00',
      checkOutTime: '11:00',
      timeZone: 'Europe/Lisbon',
      state: 'approved',
      accessState: 'none',
      landingPath: '/s?t=S1.stay-9.1.abc',
      reviewPath: '/review?t=V1.stay-9.1.abc',
      reviewed: false,
    },
  ],
};

function setup(data: RentalCenter, roles: ('admin' | 'user')[] = ['admin']) {
  storage.setAuthToken(validToken());
  return renderApp('/app/rentalcenter', {
    'GET auth': () => json(sessionFixture(roles)),
    'GET rentalcenter': () => json(data),
    'GET rentalcenter/stays': () => json({ items: [arriving], total: 1 }),
  });
}

describe('RentalCenterPage', () => {
  it("shows today's arrival with its access on each lock, the requests, the feed error and the guest's own stay", async () => {
    setup(center);
    expect(await screen.findByRole('heading', { level: 1, name: 'Rental center' })).toBeInTheDocument();
    const arrivals = screen.getByRole('region', { name: 'Arriving today' });
    expect(within(arrivals).getByRole('link', { name: 'Ana Arriving' })).toHaveAttribute(
      'href',
      '/app/listing/listing-1/request/stay-1',
    );
    expect(within(arrivals).getByText('From Airbnb')).toBeInTheDocument();
    expect(within(arrivals).getByText('Double-booked')).toBeInTheDocument();
    const locks = within(arrivals).getByRole('list', { name: "Ana Arriving's access on each lock" });
    expect(within(locks).getByText('On the lock')).toBeInTheDocument();
    expect(within(locks).getByText(/Refused: the lock’s memory is full/)).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Leaving today' })).toHaveTextContent('Nobody leaves today.');
    expect(screen.getByRole('region', { name: 'Requests to answer' })).toHaveTextContent('Pia Pending');
    expect(screen.getByRole('alert')).toHaveTextContent('came back empty');
    const mine = screen.getByRole('region', { name: 'Your stays' });
    expect(within(mine).getByRole('link', { name: 'Review your stay' })).toHaveAttribute(
      'href',
      '/review?t=V1.stay-9.1.abc',
    );
    expect(await screen.findByRole('region', { name: 'Stays' })).toBeInTheDocument();
  });

  it('says so when there is nothing to host and no stay of one’s own', async () => {
    setup(
      {
        ...center,
        hosting: null,
        listings: [],
        arrivalsToday: [],
        pendingRequests: { total: 0, items: [] },
        guestStays: [],
      },
      ['user'],
    );
    expect(await screen.findByRole('heading', { name: 'Nothing to show here' })).toBeInTheDocument();
  });
});

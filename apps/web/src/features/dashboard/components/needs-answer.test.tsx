import type { Stay, WaitingRequests } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { dashboardFixture, portalFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

const waiting: WaitingRequests = {
  items: [
    {
      _id: 'stay-1',
      listingId: 'listing-1',
      listingTitle: 'Sea view flat',
      guestName: 'Marco Visitor',
      startDate: '2031-03-10',
      endDate: '2031-03-13',
      createdAt: new Date(Date.now() - 3_600_000).toISOString(),
    },
  ],
  total: 1,
};

const approvedStay: Stay = {
  _id: 'stay-1',
  listingId: 'listing-1',
  listingTitle: 'Sea view flat',
  guestName: 'Marco Visitor',
  guestEmail: 'marco@example.com',
  guestPhone: null,
  note: '',
  startDate: '2031-03-10',
  endDate: '2031-03-13',
  nights: 3,
  checkInTime: '15:00',
  checkOutTime: '11:00',
  timeZone: 'Europe/Lisbon',
  state: 'approved',
  source: 'request',
  reason: null,
  accessState: 'waiting',
  accessFrom: '2031-03-10T15:00:00.000Z',
  accessUntil: '2031-03-13T11:00:00.000Z',
  access: [],
  capacity: [],
  conflicts: [],
  quote: null,
  landingPath: null,
  guestMailedAt: null,
  createdAt: '2031-03-01T10:00:00.000Z',
  decidedAt: '2031-03-01T11:00:00.000Z',
  updatedAt: '2031-03-01T11:00:00.000Z',
};

/** The dashboard with `answers` for the waiting requests, one after the other. */
function setup(answers: WaitingRequests[]) {
  storage.setAuthToken(validToken());
  let answer = 0;
  return renderApp('/app/dashboard', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/dashboard': () => json(dashboardFixture(portalFixture(), {})),
    'GET portal/users': () => json({ items: [], total: 0 }),
    'GET portal/requests/waiting': () => json(answers[Math.min(answer++, answers.length - 1)]),
    'POST device/listing-1/request/stay-1': () => json(approvedStay),
  });
}

describe('the dashboard inbox', () => {
  it('lists the requests waiting for an answer, with approve and a way to decline', async () => {
    setup([waiting]);
    const card = await screen.findByRole('region', { name: 'Needs your answer' });
    expect(within(card).getByText('1 waiting')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Marco Visitor' })).toHaveAttribute(
      'href',
      '/app/listing/listing-1/request/stay-1',
    );
    // The dates as the shared range writes them everywhere ("… – …", not "… to …").
    expect(
      within(card).getByText('Sea view flat · Mar 10, 2031 – Mar 13, 2031 · 3 nights'),
    ).toBeInTheDocument();
    expect(
      within(card).getByRole('link', { name: "Decline or change Marco Visitor's request" }),
    ).toHaveAttribute('href', '/app/listing/listing-1/request/stay-1');
  });

  it('approves from the card, and the request leaves it', async () => {
    const { calls } = setup([waiting, { items: [], total: 0 }]);
    const card = await screen.findByRole('region', { name: 'Needs your answer' });
    await userEvent.click(
      within(card).getByRole('button', { name: "Approve Marco Visitor's stay at Sea view flat" }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Needs your answer' })).not.toBeInTheDocument(),
    );
    const posted = calls.find((c) => c.method === 'POST' && c.path === 'device/listing-1/request/stay-1');
    expect(posted?.body).toEqual({ action: 'approve' });
    // The row is gone, so the page says what happened and what comes next.
    expect(await screen.findByText('Stay approved')).toBeInTheDocument();
    expect(
      screen.getByText(/Marco Visitor at Sea view flat: the locks are getting the access/),
    ).toBeInTheDocument();
  });

  it('counts the waiting requests on the Listings menu item', async () => {
    setup([{ ...waiting, total: 3 }]);
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    const badge = await within(nav).findByLabelText('3 requests waiting for an answer');
    expect(badge).toHaveTextContent('3');
    expect(badge.closest('a')).toHaveAttribute('href', '/app/listing');
  });

  it('shows no card while nothing waits', async () => {
    setup([{ items: [], total: 0 }]);
    await screen.findByRole('heading', { level: 1, name: 'Harbor View' });
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Needs your answer' })).not.toBeInTheDocument(),
    );
    expect(screen.queryByLabelText(/requests? waiting for an answer/)).not.toBeInTheDocument();
  });
});

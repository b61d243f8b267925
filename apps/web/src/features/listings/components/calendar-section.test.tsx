import { addDaysToDate, type ListingCalendar, type ListingIcal } from '@latchkey/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json, type RecordedCall } from '@/testing/fetch-mock';
import { listingFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';
import { addMonths } from '../api/calendar';
import { monthWeeks } from './calendar-section';

const today = new Date().toISOString().slice(0, 10);
const first = `${today.slice(0, 7)}-01`;
const day = (n: number) => addDaysToDate(first, n);

const listing = listingFixture({ nightlyPrice: null });

const calendar: ListingCalendar = {
  listingId: 'listing-1',
  title: 'Harbour flat',
  timeZone: 'Europe/Lisbon',
  today,
  from: first,
  to: `${addMonths(today.slice(0, 7), 1)}-01`,
  bookings: [
    {
      _id: 'stay-1',
      guestName: 'Dan Direct',
      startDate: day(2),
      endDate: day(5),
      nights: 3,
      state: 'approved',
      source: 'request',
      feedName: null,
      accessState: 'ready',
      checkInTime: '15:00',
      checkOutTime: '11:00',
      overlaps: ['stay-2'],
    },
    {
      _id: 'stay-2',
      guestName: 'Olga',
      startDate: day(4),
      endDate: day(6),
      nights: 2,
      state: 'approved',
      source: 'ical',
      feedName: 'Airbnb',
      accessState: 'waiting',
      checkInTime: '15:00',
      checkOutTime: '11:00',
      overlaps: ['stay-1'],
    },
  ],
  blocks: [
    {
      _id: 'block-1',
      startDate: day(10),
      endDate: day(12),
      note: 'Painting',
      source: 'owner',
      feedName: null,
      createdAt: '2031-01-01T00:00:00.000Z',
    },
  ],
  windows: [],
};

const ical: ListingIcal = {
  exportUrl: 'http://localhost/api3/ical/C1.listing-1.1.abcdefghijklmnopqrstuv.ics',
  exportRotatedAt: null,
  feeds: [
    {
      _id: 'feed-1',
      listingId: 'listing-1',
      name: 'Airbnb',
      url: 'https://www.airbnb.com/calendar/ical/1.ics',
      mode: 'auto',
      events: 4,
      stays: 1,
      lastFetchAt: '2031-01-01T00:00:00.000Z',
      lastSuccessAt: '2031-01-01T00:00:00.000Z',
      lastError: 'The feed came back empty, but it had 4 events at the last good read.',
      lastErrorAt: '2031-01-01T00:00:00.000Z',
      lastWarning: null,
      nextFetchAt: null,
      syncing: false,
      lastResult: {
        at: '2031-01-01T00:00:00.000Z',
        ok: false,
        notModified: false,
        added: 0,
        changed: 0,
        cancelled: 0,
        flagged: 0,
        blocks: 0,
      },
      createdAt: '2031-01-01T00:00:00.000Z',
    },
  ],
};

function setup() {
  storage.setAuthToken(validToken());
  const posted: RecordedCall[] = [];
  const view = renderApp('/app/listing/listing-1', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET listing/listing-1': () => json(listing),
    'GET listing/listing-1/request': () => json({ items: [], total: 0 }),
    'GET listing/listing-1/review': () => json({ items: [], total: 0 }),
    'GET listing/listing-1/ical': () => json(ical),
    'GET device/listing-1/calendar': () => json(calendar),
    'POST device/listing-1/calendar': (call) => {
      posted.push(call);
      return json({ action: (call.body as { action: string }).action, block: calendar.blocks[0] });
    },
    'POST listing/listing-1/ical/feed/feed-1/sync': (call) => {
      posted.push(call);
      // Queued: the server reads it in the background and answers the feed at once.
      return json({ ...ical.feeds[0]!, syncing: true }, 202);
    },
  });
  return { ...view, posted };
}

describe('monthWeeks', () => {
  it('fills a month with whole weeks from Monday', () => {
    const weeks = monthWeeks('2026-02');
    expect(weeks[0]![0]).toBe('2026-01-26');
    expect(weeks.at(-1)!.at(-1)).toBe('2026-03-01');
    expect(weeks.every((w) => w.length === 7)).toBe(true);
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
  });
});

describe('CalendarSection on the listing page', () => {
  it('shows bookings, flags the double booking, names each night for screen readers, and blocks nights', async () => {
    const { posted } = setup();
    const user = setupUser();
    const section = await screen.findByRole('region', { name: 'Calendar' });
    expect(await within(section).findByRole('alert')).toHaveTextContent('Dan Direct');
    const grid = within(section).getByRole('table', { name: /^Nights of / });
    // Each night Olga holds (two) says so.
    expect(within(grid).getAllByText(/booked on Airbnb by Olga, overlapping another booking/)).toHaveLength(
      2,
    );
    expect(within(grid).getAllByText(/blocked: Painting/)).toHaveLength(2);
    expect(within(section).getByText('From Airbnb')).toBeInTheDocument();

    await user.type(within(section).getByLabelText('First night'), day(20));
    await user.type(within(section).getByLabelText('Open again on'), day(22));
    await user.type(within(section).getByLabelText('Note'), 'Family');
    await user.click(within(section).getByRole('button', { name: 'Block nights' }));
    await user.click(within(section).getByRole('button', { name: /^Open the nights/ }));
    expect(posted.map((c) => c.body)).toEqual([
      { action: 'block', startDate: day(20), endDate: day(22), note: 'Family' },
      { action: 'unblock', blockId: 'block-1' },
    ]);
  });

  it('shows a failing feed with its error, and applies an empty calendar only when asked', async () => {
    const { posted } = setup();
    const user = setupUser();
    const sync = await screen.findByRole('region', { name: 'Calendar sync' });
    expect(await within(sync).findByText(/came back empty/)).toBeInTheDocument();
    expect(within(sync).getByRole('textbox', { name: 'Export feed (iCal)' })).toHaveValue(ical.exportUrl);
    await user.click(within(sync).getByRole('button', { name: /Apply the empty calendar/ }));
    expect(posted.map((c) => [c.path, c.body])).toEqual([
      ['listing/listing-1/ical/feed/feed-1/sync', { acceptEmpty: true }],
    ]);
  });
});

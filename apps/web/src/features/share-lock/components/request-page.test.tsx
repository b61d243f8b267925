import { addDaysToDate, type PublicListing } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, type RecordedCall } from '@/testing/fetch-mock';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const today = '2031-03-10';
const listing: PublicListing = {
  _id: 'listing-1',
  title: 'Sea view flat',
  description: 'Two rooms by the sea.',
  category: 'Apartment',
  houseRules: 'No parties.',
  checkInTime: '15:00',
  checkOutTime: '11:00',
  minNights: 2,
  maxNights: 10,
  timeZone: 'Europe/Lisbon',
  today,
  images: [
    {
      _id: 'i1',
      alt: 'Living room',
      position: 0,
      width: 800,
      height: 533,
      url: '/api3/image/p/i1/large',
      thumbUrl: '/t1',
    },
    {
      _id: 'i2',
      alt: 'Bedroom',
      position: 1,
      width: 800,
      height: 533,
      url: '/api3/image/p/i2/large',
      thumbUrl: '/t2',
    },
  ],
  taken: [{ startDate: addDaysToDate(today, 5), endDate: addDaysToDate(today, 8) }],
  autoAccept: false,
  price: { nightly: 12000, currency: 'EUR' },
  reviews: { count: 0, average: null, items: [] },
};

/** "Thursday, March 13, 2031, free": how the calendar names a day. */
function dayName(date: string, state: string): string {
  const name = new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));
  return `${name}, ${state}`;
}

describe('RequestPage (/s/r/:listingId)', () => {
  it('shows the pictures and free nights, and sends a request for the chosen dates', async () => {
    const sent: RecordedCall[] = [];
    renderApp('/s/r/listing-1', {
      'GET listing/listing-1/public': () => json(listing),
      'POST device/listing-1/request': (call) => {
        sent.push(call);
        return json(
          {
            _id: 's1',
            state: 'requested',
            startDate: today,
            endDate: today,
            message: 'Your request was sent.',
          },
          201,
        );
      },
    });
    const user = setupUser();
    expect(await screen.findByRole('heading', { name: 'Sea view flat' })).toBeInTheDocument();
    const carousel = screen.getByRole('region', { name: 'Pictures of Sea view flat' });
    expect(within(carousel).getByRole('img', { name: 'Living room' })).toBeInTheDocument();
    await user.click(within(carousel).getByRole('button', { name: 'Next picture' }));
    expect(within(carousel).getByRole('img', { name: 'Bedroom' })).toBeInTheDocument();

    // A taken night cannot be an arrival; the night after the taken ones can.
    expect(screen.getByRole('button', { name: dayName(addDaysToDate(today, 6), 'taken') })).toBeDisabled();
    expect(screen.getByRole('button', { name: dayName(addDaysToDate(today, -1), 'past') })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: dayName(addDaysToDate(today, 1), 'free') }));
    // The departure may not pass a taken night: the first taken one is still a fine departure day.
    expect(screen.getByRole('button', { name: dayName(addDaysToDate(today, 7), 'taken') })).toBeDisabled();
    await user.click(
      screen.getByRole('button', { name: dayName(addDaysToDate(today, 5), 'taken, free to leave') }),
    );
    expect(screen.getByText('4 nights')).toBeInTheDocument();
    // The price per night on the page, and the total for the chosen nights.
    expect(screen.getByText('€120.00 per night')).toBeInTheDocument();
    expect(screen.getByTestId('stay-total')).toHaveTextContent('4 nights × €120.00 = €480.00');

    const form = screen.getByRole('form', { name: 'Request a stay' });
    await user.type(within(form).getByLabelText(/^Your name/), 'Ana');
    await user.type(within(form).getByLabelText(/^Email/), 'ana@example.com');
    await user.click(within(form).getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText(/Your request was sent/)).toBeInTheDocument();
    expect(sent[0]!.body).toMatchObject({
      name: 'Ana',
      email: 'ana@example.com',
      startDate: addDaysToDate(today, 1),
      endDate: addDaysToDate(today, 5),
    });
  });

  it('says "Price on request" when the listing has no price', async () => {
    renderApp('/s/r/listing-1', { 'GET listing/listing-1/public': () => json({ ...listing, price: null }) });
    expect(await screen.findByRole('heading', { name: 'Sea view flat' })).toBeInTheDocument();
    expect(screen.getAllByText('Price on request')).toHaveLength(2);
    expect(screen.queryByText(/€/)).not.toBeInTheDocument();
  });

  it("puts the server's refusal under the field it is about", async () => {
    renderApp('/s/r/listing-1', {
      'GET listing/listing-1/public': () => json(listing),
      'POST device/listing-1/request': () =>
        apiError(400, 'bad_request', 'startDate falls on nights that are already taken', [
          { path: 'body.startDate', message: 'falls on nights that are already taken; choose other dates' },
        ]),
    });
    const user = setupUser();
    await screen.findByRole('heading', { name: 'Sea view flat' });
    await user.click(screen.getByRole('button', { name: dayName(addDaysToDate(today, 1), 'free') }));
    await user.click(screen.getByRole('button', { name: dayName(addDaysToDate(today, 3), 'free') }));
    const form = screen.getByRole('form', { name: 'Request a stay' });
    await user.type(within(form).getByLabelText(/^Your name/), 'Ana');
    await user.type(within(form).getByLabelText(/^Email/), 'ana@example.com');
    await user.click(within(form).getByRole('button', { name: 'Send request' }));
    await waitFor(() =>
      expect(screen.getByText(/Arrival falls on nights that are already taken/)).toBeInTheDocument(),
    );
  });

  it('says so when the listing is not open for requests', async () => {
    renderApp('/s/r/nope', {});
    expect(await screen.findByText('This listing is not open for requests')).toBeInTheDocument();
  });
});

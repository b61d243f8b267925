import type { MyReviews } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

const AT = '2026-11-20T10:00:00.000Z';

function mine(overrides: Partial<MyReviews> = {}): MyReviews {
  return {
    toReview: [
      {
        stayId: 'stay-1',
        listingTitle: 'Cliff cabin',
        startDate: '2026-11-14',
        endDate: '2026-11-16',
        closesOn: '2026-12-16',
        reviewPath: '/review?t=V1.stay-1.1.mac',
      },
    ],
    written: [
      {
        _id: 'own-1',
        listingTitle: 'Harbour loft',
        rating: 4,
        text: 'Bright and calm.',
        state: 'published',
        answer: 'Thank you, come again!',
        stayStartDate: '2026-10-01',
        stayEndDate: '2026-10-03',
        createdAt: AT,
      },
    ],
    hosting: null,
    ...overrides,
  };
}

const hostedReview = {
  _id: 'rev-9',
  listingId: 'listing-9',
  listingTitle: 'Bright two rooms',
  stayId: 'stay-9',
  guestName: 'Sofia',
  rating: 5,
  text: 'Spotless.',
  state: 'published' as const,
  hiddenReason: null,
  answer: null,
  answeredAt: null,
  stayStartDate: '2026-11-01',
  stayEndDate: '2026-11-04',
  createdAt: AT,
  updatedAt: AT,
};

describe('/app/review', () => {
  beforeEach(() => {
    localStorage.clear();
    storage.setAuthToken(validToken());
  });

  it("shows a guest the stay to review with the way to write it, and their review with the host's answer", async () => {
    renderApp('/app/review', {
      'GET auth': () => json(sessionFixture(['user'])),
      'GET reviews/mine': () => json(mine()),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Reviews' })).toBeInTheDocument();
    const toReview = await screen.findByRole('list', { name: 'Stays to review' });
    expect(within(toReview).getByText('Cliff cabin')).toBeInTheDocument();
    expect(within(toReview).getByRole('link', { name: 'Write a review of Cliff cabin' })).toHaveAttribute(
      'href',
      '/review?t=V1.stay-1.1.mac',
    );
    const written = screen.getByRole('list', { name: 'Reviews you wrote' });
    expect(within(written).getByText('Bright and calm.')).toBeInTheDocument();
    expect(within(written).getByText('Thank you, come again!')).toBeInTheDocument();
    expect(within(written).getByRole('img', { name: '4 of 5 stars' })).toBeInTheDocument();
    // Not a host: no listings' reviews.
    expect(screen.queryByRole('heading', { name: 'Reviews of your listings' })).not.toBeInTheDocument();
  });

  it('lets a host answer a review of their listing in place', async () => {
    let answered = false;
    const { calls } = renderApp('/app/review', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET reviews/mine': () =>
        json(
          mine({
            toReview: [],
            written: [],
            hosting: {
              portalName: 'Harbor View',
              total: 1,
              items: [{ ...hostedReview, answer: answered ? 'Thanks, Sofia' : null }],
            },
          }),
        ),
      'POST listing/listing-9/review/rev-9': () => {
        answered = true;
        return json({ ...hostedReview, answer: 'Thanks, Sofia', answeredAt: AT });
      },
    });
    const hosted = await screen.findByRole('list', { name: 'Reviews of your listings' });
    expect(within(hosted).getByRole('link', { name: 'Bright two rooms' })).toHaveAttribute(
      'href',
      '/app/listing/listing-9',
    );
    expect(screen.getByText('No stay is waiting for your review.')).toBeInTheDocument();
    await userEvent.click(within(hosted).getByRole('button', { name: "Answer Sofia's review" }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Your answer' }), 'Thanks, Sofia');
    await userEvent.click(screen.getByRole('button', { name: 'Save answer' }));
    await waitFor(() => expect(screen.getByText('Thanks, Sofia')).toBeInTheDocument());
    expect(calls.find((call) => call.method === 'POST')!.body).toEqual({
      action: 'answer',
      answer: 'Thanks, Sofia',
    });
  });

  it('says what went wrong when the reviews cannot be read', async () => {
    renderApp('/app/review', {
      'GET auth': () => json(sessionFixture(['user'])),
      'GET reviews/mine': () => json({ error: { code: 'internal', message: 'Down' } }, 500),
    });
    expect(await screen.findByText('Could not load your reviews')).toBeInTheDocument();
  });
});

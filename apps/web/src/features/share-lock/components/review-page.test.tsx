import type { ReviewInvitation } from '@latchkey/shared';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json } from '@/testing/fetch-mock';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const open: ReviewInvitation = {
  listingTitle: 'Cliff cabin',
  guestName: 'Rita',
  startDate: '2031-02-01',
  endDate: '2031-02-04',
  open: true,
  reason: null,
  closesOn: '2031-03-06',
  review: null,
  listingPath: '/s/r/listing-1',
};

describe('ReviewPage (/review?t=…)', () => {
  it('takes stars and words, and shows the review once sent', async () => {
    const sent: unknown[] = [];
    renderApp('/review?t=V1.stay-1.1.abc', {
      'GET review/V1.stay-1.1.abc': () => json(open),
      'POST review/V1.stay-1.1.abc': (call) => {
        sent.push(call.body);
        return json(
          {
            ...open,
            open: false,
            reason: 'You reviewed this stay',
            review: {
              rating: 4,
              text: 'Lovely',
              state: 'published',
              answer: null,
              createdAt: '2031-02-05T10:00:00.000Z',
            },
          },
          201,
        );
      },
    });
    const user = setupUser();
    expect(await screen.findByRole('heading', { name: 'Your stay at Cliff cabin' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Publish review' }));
    expect(screen.getByText('Choose 1 to 5 stars')).toBeInTheDocument();
    expect(sent).toEqual([]);
    await user.click(screen.getByRole('radio', { name: '4 ★ Very good' }));
    await user.type(screen.getByRole('textbox', { name: /Tell future guests/ }), 'Lovely');
    await user.click(screen.getByRole('button', { name: 'Publish review' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Thank you for your review');
    expect(sent).toEqual([{ rating: 4, text: 'Lovely' }]);
  });

  it('says why reviews are not open, and that a broken link does not work', async () => {
    const first = renderApp('/review?t=V1.stay-1.1.abc', {
      'GET review/V1.stay-1.1.abc': () =>
        json({ ...open, open: false, reason: 'Reviews open once the stay is over' }),
    });
    expect(await screen.findByText('Reviews open once the stay is over')).toBeInTheDocument();
    first.unmount();
    renderApp('/review?t=V1.nothing', {
      'GET review/V1.nothing': () => apiError(404, 'not_found', 'Review link not found'),
    });
    expect(await screen.findByText('This review link does not work')).toBeInTheDocument();
  });
});

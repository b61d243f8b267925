import type { ActivityItem } from '@latchkey/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { auditFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

function setup(activity: MockHandler) {
  storage.setAuthToken(validToken());
  return renderApp('/app/activity', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/activity': activity,
  });
}

const eventItem = (id: string, at: string, overrides = {}): ActivityItem => ({
  source: 'event',
  at,
  event: {
    _id: id,
    eventId: id,
    device: { _id: 'device-1', name: 'Front door' },
    type: 'unlock',
    method: 'code',
    user: { _id: 'user-2', name: 'Grace Hopper' },
    credentialId: null,
    reason: null,
    occurredAt: at,
    receivedAt: at,
    ...overrides,
  },
});

const changeItem = (id: string, at: string): ActivityItem => ({
  source: 'change',
  at,
  change: auditFixture({
    _id: id,
    action: 'group.create',
    entityType: 'group',
    before: null,
    after: { name: 'Cleaners' },
    createdAt: at,
  }),
});

describe('ActivityPage', () => {
  it('shows changes and lock events as sentences by day, and loads older ones', async () => {
    const recent = new Date();
    const older = '2026-01-05T15:00:00.000Z';
    const oldest = '2025-12-24T15:00:00.000Z';
    const { calls } = setup((call) => {
      const before = new URL(call.url, 'http://x').searchParams.get('before');
      return before
        ? json({
            items: [eventItem('event-old', oldest, { type: 'tamper', user: null, method: null })],
            nextBefore: null,
          })
        : json({
            items: [
              eventItem('event-1', recent.toISOString()),
              changeItem('audit-1', recent.toISOString()),
              eventItem('event-2', older, { type: 'denied', reason: 'outside_schedule' }),
            ],
            nextBefore: older,
          });
    });
    const today = await screen.findByRole('region', { name: 'Today' });
    expect(within(today).getByText('Front door unlocked by Grace Hopper with a code')).toBeInTheDocument();
    expect(within(today).getByText('Group created: Cleaners')).toBeInTheDocument();
    expect(within(today).getByText(/by Ada Lovelace/)).toBeInTheDocument();
    expect(within(today).getByRole('link', { name: 'Front door' })).toHaveAttribute(
      'href',
      '/app/device/device-1',
    );
    const january = screen.getByRole('region', { name: /January 5, 2026/ });
    expect(
      within(january).getByText('Front door refused Grace Hopper (outside their schedule)'),
    ).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Load older' }));
    expect(await screen.findByText('Tamper alarm at Front door')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: /December 24, 2025/ })).toBeInTheDocument();
    // Nothing older: the button gives way to the end of the feed.
    expect(screen.queryByRole('button', { name: 'Load older' })).not.toBeInTheDocument();
    expect(screen.getByText('That is everything.')).toBeInTheDocument();
    const asked = calls.filter((c) => c.path === 'portal/activity').map((c) => new URL(c.url, 'http://x'));
    expect(asked[0]!.searchParams.get('before')).toBeNull();
    expect(asked.at(-1)!.searchParams.get('before')).toBe(older);
    // Items never repeat after loading more.
    expect(screen.getAllByText('Group created: Cleaners')).toHaveLength(1);
  });

  it('says when nothing has happened yet', async () => {
    setup(() => json({ items: [], nextBefore: null }));
    expect(await screen.findByRole('heading', { name: 'Nothing has happened yet' })).toBeInTheDocument();
  });

  it('shows an error with a way to try again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup(() => apiError(500, 'internal', 'Boom'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the activity');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

import type { Notification, NotificationsPage } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { applyLiveMessage } from '@/lib/live/use-live-channel';
import { queryClient } from '@/lib/query-client';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { dashboardFixture, portalFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const request: Notification = {
  _id: 'n-2',
  kind: 'stay_request',
  ruleId: null,
  device: null,
  subject: { type: 'stay', _id: 'stay-1', name: 'Marco Visitor · Sea view flat', listingId: 'listing-1' },
  title: 'Marco Visitor asks to stay at Sea view flat',
  message: 'Dec 17, 2026 – Dec 20, 2026, 3 nights.',
  createdAt: minutesAgo(2),
  unread: true,
};
const refused: Notification = {
  _id: 'n-1',
  kind: 'lock_refused',
  ruleId: null,
  device: { _id: 'device-1', name: 'Main entrance' },
  subject: { type: 'device', _id: 'device-1', name: 'Main entrance', listingId: null },
  title: 'Main entrance refused a credential',
  message: "Ana Cleaner's code: the lock's storage is full.",
  createdAt: minutesAgo(30),
  unread: false,
};

/** The dashboard of an admin, the bell's list answered by `pages` one after the other. */
function setup(pages: NotificationsPage[], roles: ('admin' | 'user')[] = ['admin']) {
  storage.setAuthToken(validToken());
  let answer = 0;
  return renderApp(roles.includes('admin') ? '/app/dashboard' : '/sync/user', {
    'GET auth': () => json(sessionFixture(roles)),
    'GET portal/dashboard': () => json(dashboardFixture(portalFixture(), {})),
    'GET portal/users': () => json({ items: [], total: 0 }),
    'GET portal/notifications': () => json(pages[Math.min(answer++, pages.length - 1)]),
    'POST portal/notifications/read': () => json({ readAt: new Date().toISOString() }),
  });
}

describe('NotificationBell', () => {
  it('shows the unread count and the latest notifications, each linking to where to act', async () => {
    setup([{ items: [request, refused], total: 2, unread: 1 }]);
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    await userEvent.click(bell);
    const panel = await screen.findByRole('dialog');
    const links = within(panel).getAllByRole('link');
    expect(links[0]).toHaveTextContent('Unread: Marco Visitor asks to stay at Sea view flat');
    expect(links[0]).toHaveAttribute('href', '/app/listing/listing-1/request/stay-1');
    expect(links[1]).toHaveTextContent('Main entrance refused a credential');
    expect(links[1]).toHaveAttribute('href', '/app/device/device-1?tab=sync');
    expect(within(panel).getByRole('link', { name: 'All notifications and alert rules' })).toHaveAttribute(
      'href',
      '/app/notificationAndAlert',
    );
  });

  it('reads what it shows when opened: the count goes, the new ones stay marked while it is open', async () => {
    const { calls } = setup([
      { items: [request, refused], total: 2, unread: 1 },
      { items: [{ ...request, unread: false }, refused], total: 2, unread: 0 },
    ]);
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    const reads = () => calls.filter((c) => c.method === 'POST' && c.path === 'portal/notifications/read');
    await waitFor(() => expect(reads()).toHaveLength(1));
    const bell = await screen.findByRole('button', { name: 'Notifications' });
    const links = within(screen.getByRole('dialog')).getAllByRole('link');
    expect(links[0]).toHaveTextContent('Unread: Marco Visitor asks to stay');
    expect(links[1]).not.toHaveTextContent('Unread:');
    // Closed and opened again: nothing is new, and nothing is marked read again.
    await userEvent.click(bell);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.click(bell);
    const again = within(await screen.findByRole('dialog')).getAllByRole('link');
    expect(again[0]).not.toHaveTextContent('Unread:');
    expect(reads()).toHaveLength(1);
  });

  it('reads the list again when the live channel says a notification was raised', async () => {
    const { calls } = setup([
      { items: [], total: 0, unread: 0 },
      { items: [request], total: 1, unread: 1 },
    ]);
    await screen.findByRole('button', { name: 'Notifications' });
    applyLiveMessage(
      {
        type: 'notification',
        portalId: 'portal-1',
        notification: {
          _id: 'n-2',
          at: new Date().toISOString(),
          kind: 'notice',
          title: request.title,
          message: request.message,
          deviceId: null,
        },
      },
      queryClient,
      { current: 0 },
    );
    expect(await screen.findByRole('button', { name: 'Notifications, 1 unread' })).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.filter((c) => c.path === 'portal/notifications').length).toBeGreaterThanOrEqual(2),
    );
  });

  it('is not shown to a basic user (the inbox is the admins’)', async () => {
    const { calls } = setup([{ items: [], total: 0, unread: 0 }], ['user']);
    await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(screen.queryByRole('button', { name: /^Notifications/ })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === 'portal/notifications')).toBe(false);
  });
});

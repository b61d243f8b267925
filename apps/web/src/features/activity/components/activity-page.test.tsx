import type { ActivityItem, AuditEntry } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { auditFixture, deviceFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

function setup(activity: MockHandler, path = '/app/activity', more: Record<string, MockHandler> = {}) {
  storage.setAuthToken(validToken());
  return renderApp(path, {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/activity': activity,
    'GET portal/devices': () => json({ items: [deviceFixture()], total: 1 }),
    'GET portal/scopedUsers': () => json([]),
    ...more,
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

type ChangeItem = Extract<ActivityItem, { source: 'change' }>;

/** A change the feed links to the Front door (and, with `links`, to a person or a command's outcome). */
const frontDoorChange = (
  change: Partial<AuditEntry>,
  links: Partial<Pick<ChangeItem, 'person' | 'command'>> = {},
): ChangeItem => {
  const at = new Date().toISOString();
  return {
    source: 'change',
    at,
    change: auditFixture({
      entityType: 'device',
      entityId: 'device-1',
      before: null,
      createdAt: at,
      ...change,
    }),
    device: { _id: 'device-1', name: 'Front door' },
    person: null,
    command: null,
    ...links,
  };
};

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

    await setupUser().click(screen.getByRole('button', { name: 'Load older' }));
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

  it('names the lock, the person and who sent a remote unlock, and that it failed', async () => {
    setup(() =>
      json({
        items: [
          frontDoorChange(
            { _id: 'cmd-1', action: 'device.command.unlock', after: { commandId: 'c-1' } },
            { command: { status: 'failed', error: 'jammed' } },
          ),
          frontDoorChange(
            {
              _id: 'grant-1',
              action: 'access.grant',
              after: { user: 'grace@example.com', device: 'Front door' },
            },
            { person: { _id: 'user-2', name: 'Grace Hopper' } },
          ),
        ],
        nextBefore: null,
      }),
    );
    const today = await screen.findByRole('region', { name: 'Today' });
    const [command, grant] = within(today).getAllByRole('listitem');
    expect(command).toHaveTextContent('Remote unlock sent · Front door failed: jammed');
    expect(command).toHaveTextContent('by Ada Lovelace');
    expect(within(command!).getByRole('link', { name: 'Front door' })).toHaveAttribute(
      'href',
      '/app/device/device-1',
    );
    expect(grant).toHaveTextContent(/^Access granted · Front door · Grace Hopper/);
    expect(within(grant!).getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute(
      'href',
      '/app/user/user-2',
    );
  });

  it('names a guest invite by its guest beside the lock it is for', async () => {
    setup(() =>
      json({
        items: [
          frontDoorChange({
            _id: 'invite-1',
            action: 'invite.create',
            entityType: 'device_invite',
            entityId: 'invite-1',
            after: { device: 'Front door', name: 'Grace Guest', email: 'grace@example.com' },
          }),
        ],
        nextBefore: null,
      }),
    );
    const today = await screen.findByRole('region', { name: 'Today' });
    const [invite] = within(today).getAllByRole('listitem');
    expect(invite).toHaveTextContent(/^Guest invited: Grace Guest · Front door/);
  });

  it('narrows to a kind and a lock from the address and the filters, and exports the same', async () => {
    const { calls } = setup(() => json({ items: [], nextBefore: null }), '/app/activity?kind=denied', {
      'GET portal/activity/export': () =>
        new Response('time,source\r\n', { status: 200, headers: { 'content-type': 'text/csv' } }),
    });
    expect(await screen.findByRole('heading', { name: 'Nothing matches' })).toBeInTheDocument();
    const user = setupUser();
    expect(screen.getByRole('combobox', { name: 'Kind' })).toHaveValue('Refused');
    await user.click(screen.getByRole('combobox', { name: 'Lock' }));
    await user.click(await screen.findByRole('option', { name: 'Front door' }));
    const asked = () =>
      calls.filter((c) => c.path === 'portal/activity').map((c) => new URL(c.url, 'http://x').searchParams);
    await waitFor(() => expect(asked().at(-1)!.get('deviceId')).toBe('device-1'));
    expect(asked().at(-1)!.get('kind')).toBe('denied');
    expect(asked()[0]!.get('deviceId')).toBeNull();

    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = vi.fn(() => 'blob:activity');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const exported = new URL(calls.find((c) => c.path === 'portal/activity/export')!.url, 'http://x');
    expect(exported.searchParams.get('deviceId')).toBe('device-1');
    expect(exported.searchParams.get('kind')).toBe('denied');
    click.mockRestore();
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = revokeObjectURL;
  });
});

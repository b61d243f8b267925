import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json } from '@/testing/fetch-mock';
import { dashboardFixture, memberFixture, portalFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const counts = { members: 12, admins: 2, users: 10, invited: 3, suspended: 1 };
const lockCounts = { devices: 34, groups: 5, offline: 14, lowBattery: 2 };

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();

/** The dashboard with the given answer, an empty member list beside it. */
function setup(dashboard: ReturnType<typeof dashboardFixture>) {
  storage.setAuthToken(validToken());
  return renderApp('/app/dashboard', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/dashboard': () => json(dashboard),
    'GET portal/users': () => json({ items: [], total: 0 }),
  });
}

/** A stat card's number, found by its label within the named list of cards. */
function statValue(list: string, label: string) {
  const card = within(screen.getByRole('list', { name: list }))
    .getAllByRole('listitem')
    .find((item) => within(item).queryByText(label, { exact: true }));
  expect(card, `${label} card`).toBeDefined();
  return within(card!).getByText(/^[\d,]+$/).textContent;
}

describe('DashboardPage', () => {
  it('calls a portal that never paid Free plan, not unpaid', async () => {
    const portal = portalFixture({ expireDate: null, stripe: { status: null }, current: false });
    setup(dashboardFixture(portal, counts));
    const summary = await screen.findByRole('region', { name: 'Subscription' });
    expect(within(summary).getByText('Free plan')).toBeInTheDocument();
    expect(within(summary).queryByText('Not paid')).not.toBeInTheDocument();
    expect(within(summary).getByText('Free plan, no subscription')).toBeInTheDocument();
  });

  it('shows the portal, its status, counts and the latest members', async () => {
    storage.setAuthToken(validToken());
    const portal = portalFixture({ expireDate: '2020-06-01T16:00:00.000Z', current: false });
    const { calls } = renderApp('/app/dashboard', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/dashboard': () => json(dashboardFixture(portal, counts)),
      'GET portal/users': () =>
        json({
          items: [
            memberFixture(),
            memberFixture({ _id: 'u3', firstName: '', lastName: '', email: 'x@y.z', status: 'invited' }),
          ],
          total: 12,
        }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbor View' })).toBeInTheDocument();
    expect(screen.getAllByText(/Not paid since Jun 1, 2020/).length).toBeGreaterThan(0);
    expect(statValue('Member counts', 'Members')).toBe('12');
    expect(statValue('Member counts', 'Invited')).toBe('3');
    // Role counts are of active members, and say so.
    expect(statValue('Member counts', 'Active users')).toBe('10');
    expect(statValue('Member counts', 'Active admins')).toBe('2');
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    // An invited person has not joined: the row says when they were invited, as the People list does.
    const invitedRow = screen.getByText('x@y.z').closest('tr')!;
    expect(within(invitedRow).getByText(/^Invited \w{3} \d{1,2}, \d{4}$/)).toBeInTheDocument();
    const list = calls.find((c) => c.path === 'portal/users')!;
    expect(list.url).toContain('limit=5');
    expect(list.url).toContain('sortBy=joinedAt');
    expect(list.url).toContain('descending=true');
  });

  it('counts locks and groups, linking to their lists', async () => {
    setup(dashboardFixture(portalFixture(), { ...counts, ...lockCounts }));
    const locks = await screen.findByRole('list', { name: 'Lock counts' });
    expect(statValue('Lock counts', 'Locks')).toBe('34');
    expect(statValue('Lock counts', 'Groups')).toBe('5');
    expect(statValue('Lock counts', 'Offline')).toBe('14');
    expect(statValue('Lock counts', 'Low battery')).toBe('2');
    const links = within(locks).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/app/device', '/app/group']);
    expect(links[0]).toHaveTextContent('Locks34');
    expect(links[1]).toHaveTextContent('Groups5');
  });

  it('lists the offline locks and the ones running low, each linking to the lock', async () => {
    setup(
      dashboardFixture(
        portalFixture(),
        { ...counts, ...lockCounts },
        {
          offline: [
            { _id: 'd1', name: 'Back gate', battery: null, lastSeenAt: null },
            { _id: 'd2', name: 'Bike shed', battery: 60, lastSeenAt: hoursAgo(3) },
          ],
          lowBattery: [
            { _id: 'd3', name: 'Garage', battery: 4, lastSeenAt: hoursAgo(1) },
            { _id: 'd4', name: 'Side door', battery: 15, lastSeenAt: null },
          ],
        },
      ),
    );
    const card = await screen.findByRole('region', { name: 'Needs attention' });

    const offline = within(card).getByRole('region', { name: /^Offline/ });
    const offlineRows = within(offline).getAllByRole('listitem');
    expect(offlineRows).toHaveLength(2);
    expect(within(offlineRows[0]!).getByRole('link', { name: 'Back gate' })).toHaveAttribute(
      'href',
      '/app/device/d1',
    );
    expect(offlineRows[0]).toHaveTextContent('Never connected');
    expect(within(offlineRows[1]!).getByRole('link', { name: 'Bike shed' })).toHaveAttribute(
      'href',
      '/app/device/d2',
    );
    expect(offlineRows[1]).toHaveTextContent('Last seen 3 hours ago');
    // 14 offline, 2 listed: the rest are on the locks list.
    expect(offline).toHaveTextContent('and 12 more');
    expect(within(offline).getByRole('link', { name: 'See all locks' })).toHaveAttribute(
      'href',
      '/app/device',
    );

    const low = within(card).getByRole('region', { name: /^Low battery/ });
    const lowRows = within(low).getAllByRole('listitem');
    expect(lowRows).toHaveLength(2);
    expect(within(lowRows[0]!).getByRole('link', { name: 'Garage' })).toHaveAttribute(
      'href',
      '/app/device/d3',
    );
    expect(lowRows[0]).toHaveTextContent('4%');
    expect(within(lowRows[1]!).getByRole('link', { name: 'Side door' })).toHaveAttribute(
      'href',
      '/app/device/d4',
    );
    expect(lowRows[1]).toHaveTextContent('15%');
    expect(within(low).queryByText(/more/)).not.toBeInTheDocument();

    expect(within(card).queryByText('All locks are online')).not.toBeInTheDocument();
    expect(within(card).queryByText('No batteries running low')).not.toBeInTheDocument();
  });

  it('says so when every lock is online and no battery runs low', async () => {
    setup(dashboardFixture(portalFixture(), { ...counts, devices: 3, groups: 1 }));
    const card = await screen.findByRole('region', { name: 'Needs attention' });
    expect(within(card).getByText('All locks are online')).toBeInTheDocument();
    expect(within(card).getByText('No batteries running low')).toBeInTheDocument();
    expect(within(card).queryByRole('listitem')).not.toBeInTheDocument();
    expect(within(card).queryByText('No locks yet')).not.toBeInTheDocument();
  });

  it('invites to add the first lock when the portal has none', async () => {
    setup(dashboardFixture(portalFixture(), counts));
    const card = await screen.findByRole('region', { name: 'Needs attention' });
    expect(within(card).getByRole('heading', { level: 3, name: 'No locks yet' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Add your first lock' })).toHaveAttribute(
      'href',
      '/app/device',
    );
    expect(within(card).queryByText('All locks are online')).not.toBeInTheDocument();
    expect(statValue('Lock counts', 'Locks')).toBe('0');
  });

  it('renames the portal, sending only what changed', async () => {
    storage.setAuthToken(validToken());
    let portal = portalFixture();
    const { calls } = renderApp('/app/dashboard', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/dashboard': () => json(dashboardFixture(portal, counts)),
      'GET portal/users': () => json({ items: [], total: 0 }),
      'POST portal/data': (call) => {
        portal = { ...portal, ...(call.body as object) };
        return json(portal);
      },
    });
    const user = setupUser();
    const name = await screen.findByLabelText(/^Portal name/);
    await user.clear(name);
    await user.type(name, 'Harbor View North');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Portal saved')).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'portal/data')!.body).toEqual({ name: 'Harbor View North' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbor View North' })).toBeInTheDocument();
  });

  it('shows an error with a retry when the dashboard cannot load', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    storage.setAuthToken(validToken());
    renderApp('/app/dashboard', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/dashboard': () => apiError(500, 'internal', 'boom'),
    });
    expect(await screen.findByText('Could not load the dashboard')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument());
  });
});

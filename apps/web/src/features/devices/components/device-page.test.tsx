import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { deviceFixture, deviceUserFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const device = deviceFixture();

function setup(path: string, routes: Record<string, MockHandler> = {}) {
  storage.setAuthToken(validToken());
  return renderApp(path, {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/device/device-1': () => json(device),
    ...routes,
  });
}

const access = (at: string, localTime: string) => ({
  at,
  timeZone: 'America/New_York',
  localTime,
  people: [
    {
      _id: 'user-2',
      name: 'Grace Hopper',
      email: 'grace@example.com',
      canOpen: true,
      reason: null,
      credentials: ['code', 'remote'],
    },
    {
      _id: 'user-3',
      name: 'Alan Turing',
      email: 'alan@example.com',
      canOpen: false,
      reason: 'outside_schedule',
      credentials: ['code'],
    },
    {
      _id: 'user-4',
      name: 'Joan Clarke',
      email: 'joan@example.com',
      canOpen: false,
      reason: 'suspended',
      credentials: ['rfid'],
    },
    {
      _id: 'user-5',
      name: '',
      email: 'x@example.com',
      canOpen: false,
      reason: 'unknown_credential',
      credentials: [],
    },
  ],
  others: [],
});

describe('DevicePage', () => {
  it("shows who can open now, with reasons in words, and at a chosen time on the lock's clock", async () => {
    const { calls } = setup('/app/device/device-1?tab=access', {
      'GET portal/device/device-1/access': (call) => {
        const at = new URL(call.url, 'http://x').searchParams.get('at');
        return json(
          at
            ? access(at, 'Sat 2026-11-28 23:15')
            : access('2026-11-23T14:30:00.000Z', 'Mon 2026-11-23 09:30'),
        );
      },
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Front door' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Who can open' });
    const items = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.textContent);
    expect(items).toHaveLength(4);
    expect(within(items[0]!).getByText('Can open')).toBeInTheDocument();
    expect(within(items[0]!).getByText('App')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Outside their schedule')).toBeInTheDocument();
    expect(within(items[2]!).getByText('Suspended')).toBeInTheDocument();
    expect(within(items[3]!).getByText('No code, card or key for this lock')).toBeInTheDocument();
    expect(screen.getByText('1 of 4 can open')).toBeInTheDocument();
    // The lock's time in the shared format, labelled with its zone (not the API's "Mon 2026-11-23 09:30").
    expect(screen.getByText('Mon, Nov 23, 2026, 09:30 America/New_York')).toBeInTheDocument();
    expect(calls.find((c) => c.path === 'portal/device/device-1/access')!.url).not.toContain('at=');

    // 23:15 on the lock's clock in New York (EST, UTC−5) is 04:15 UTC the next day. The time is
    // typed on the 24-hour clock, and tidied when the field is left ("2315" → "23:15").
    fireEvent.change(screen.getByLabelText(/^Date/), { target: { value: '2026-11-28' } });
    const time = screen.getByLabelText(/^Time/);
    fireEvent.change(time, { target: { value: '2315' } });
    fireEvent.blur(time);
    expect(time).toHaveValue('23:15');
    expect(await screen.findByText('Sat, Nov 28, 2026, 23:15 America/New_York')).toBeInTheDocument();
    const withAt = calls.filter((c) => c.url.includes('at='));
    expect(new URL(withAt.at(-1)!.url, 'http://x').searchParams.get('at')).toBe('2026-11-29T04:15:00.000Z');

    await setupUser().click(screen.getByRole('button', { name: 'Now' }));
    expect(await screen.findByText('Mon, Nov 23, 2026, 09:30 America/New_York')).toBeInTheDocument();
  });

  it('lists people with how they have access and their schedule, and edits a schedule', async () => {
    let schedule: unknown = null;
    const { calls } = setup('/app/device/device-1', {
      'GET device/device-1/users': () =>
        json([
          deviceUserFixture({
            via: { direct: true, groups: [{ _id: 'group-1', name: 'Cleaners' }] },
            schedule: { windows: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' }] },
          }),
          deviceUserFixture({
            _id: 'user-3',
            firstName: 'Alan',
            lastName: 'Turing',
            email: 'alan@example.com',
            status: 'suspended',
            via: { direct: false, groups: [{ _id: 'group-1', name: 'Cleaners' }] },
          }),
        ]),
      'GET device/device-1/possibleUsers': () => json([]),
      'GET portal/device/device-1/schedule/user-3': () => json({ schedule }),
      'POST portal/device/device-1/schedule/user-3': (call) => {
        schedule = (call.body as { schedule: unknown }).schedule;
        return json({ schedule });
      },
    });
    const list = await screen.findByRole('list', { name: 'People with access' });
    expect(within(list).getByText('Mon–Fri 09:00–17:00')).toBeInTheDocument();
    expect(within(list).getByText('Any time')).toBeInTheDocument();
    expect(within(list).getByText('Direct')).toBeInTheDocument();
    expect(within(list).getAllByRole('link', { name: 'Through group Cleaners' })[0]).toHaveAttribute(
      'href',
      '/app/group/group-1',
    );
    // Only direct access can be removed here.
    expect(
      within(list).getByRole('button', { name: 'Remove direct access of Grace Hopper' }),
    ).toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: 'Remove direct access of Alan Turing' })).toBeNull();
    expect(screen.getByText('Everyone in the portal already has access to this lock.')).toBeInTheDocument();

    const user = setupUser();
    await user.click(within(list).getByRole('button', { name: 'Edit schedule of Alan Turing' }));
    const dialog = await screen.findByRole('dialog', { name: 'When can Alan Turing open Front door?' });
    await user.click(await within(dialog).findByRole('switch', { name: /Any time/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Saturday' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findByText('Schedule saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST' && c.path.includes('/schedule/'))!.body).toEqual({
      schedule: { windows: [{ days: [1, 2, 3, 4, 5, 6], start: '09:00', end: '17:00' }] },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('removes direct access after saying that group access remains', async () => {
    let users = [
      deviceUserFixture({ via: { direct: true, groups: [{ _id: 'group-1', name: 'Cleaners' }] } }),
    ];
    const { calls } = setup('/app/device/device-1', {
      'GET device/device-1/users': () => json(users),
      'GET device/device-1/possibleUsers': () => json([]),
      'DELETE user/user-2/device/device-1': () => {
        users = [{ ...users[0]!, via: { direct: false, groups: users[0]!.via.groups } }];
        return json(undefined, 204);
      },
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Remove direct access of Grace Hopper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove direct access?' });
    expect(dialog).toHaveTextContent('Grace Hopper keeps access through Cleaners');
    await user.click(within(dialog).getByRole('button', { name: 'Remove direct access' }));
    expect(
      await screen.findByText('Grace Hopper can still open Front door through Cleaners.'),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === 'user/user-2/device/device-1')).toBe(true);
    await waitFor(() => expect(screen.queryByText('Direct')).not.toBeInTheDocument());
  });

  it('offers Undo after removing access, which gives it back with the same schedule', async () => {
    const schedule = { windows: [{ days: [1, 2, 3], start: '07:00', end: '15:00' }] };
    let users = [deviceUserFixture({ schedule, via: { direct: true, groups: [] } })];
    let restore = users;
    const { calls } = setup('/app/device/device-1', {
      'GET device/device-1/users': () => json(users),
      'GET device/device-1/possibleUsers': () => json([]),
      'DELETE user/user-2/device/device-1': () => {
        const removed = users;
        users = [];
        restore = removed;
        return json(undefined, 204);
      },
      'PUT user/user-2/device/device-1': () => {
        users = restore;
        return json(undefined, 204);
      },
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Remove direct access of Grace Hopper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove direct access?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove direct access' }));
    // The notification's own Undo (the one of an earlier test may still be on screen).
    const notice = (await screen.findByText('Grace Hopper can no longer open Front door.')).parentElement!;
    await user.click(within(notice).getByRole('button', { name: 'Undo' }));
    expect(
      await screen.findByText('Grace Hopper has direct access to Front door again, with the same schedule.'),
    ).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT' && c.path === 'user/user-2/device/device-1')!.body).toEqual({
      schedule,
    });
    expect(await screen.findByText('Mon–Wed 07:00–15:00')).toBeInTheDocument();
  }, 30_000);

  it('names the lockouts in effect in the header, and holds back the unlock while one keeps admins out', async () => {
    const lockout = (id: string, name: string, exemptAdmins: boolean) => ({
      _id: id,
      name,
      until: '2026-11-29T14:00:00.000Z',
      exemptAdmins,
    });
    setup('/app/device/device-1', {
      // Who can open it now names the lockouts in effect, those keeping admins out first.
      'GET portal/device/device-1/access': () =>
        json({
          ...access('2026-11-28T12:00:00.000Z', 'Sat 2026-11-28 07:00'),
          lockouts: [
            lockout('lockout-2', 'Stairwell painting', false),
            lockout('lockout-1', 'Audit week', true),
          ],
        }),
    });
    const painting = await screen.findByRole('link', { name: 'Stairwell painting' });
    expect(painting).toHaveAttribute('href', '/app/lockout/lockout-2');
    expect(screen.getByRole('link', { name: 'Audit week' })).toBeInTheDocument();
    expect(screen.getAllByText('Lockout in effect')).toHaveLength(2);
    // Until 09:00 on the lock's clock (New York), the admins' exemption said.
    expect(screen.getAllByText(/until Nov 29, 2026, 09:00/)).not.toHaveLength(0);
    expect(screen.getByText(/admins let through/)).toBeInTheDocument();

    const unlock = screen.getByRole('button', { name: `Unlock ${device.name} now` });
    expect(unlock).toBeDisabled();
    expect(unlock).toHaveAccessibleDescription(
      /“Stairwell painting” keeps everyone out, admins included, until Nov 29, 2026, 09:00: end it or let admins through/,
    );
    expect(screen.getByRole('button', { name: `Lock ${device.name} now` })).toBeEnabled();
  });

  it('says so when the lock does not exist', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup('/app/device/nope', { 'GET portal/device/nope': () => apiError(404, 'not_found', 'Not found') });
    expect(await screen.findByRole('heading', { name: "This lock doesn't exist" })).toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import {
  auditFixture,
  deviceEventFixture,
  memberDeviceFixture,
  memberFixture,
  sessionFixture,
} from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

function setup(routes: Record<string, MockHandler> = {}, member = memberFixture()) {
  storage.setAuthToken(validToken());
  return renderApp(`/app/user/${member._id}`, {
    'GET auth': () => json(sessionFixture(['admin'])),
    [`GET portal/user/${member._id}`]: () => json({ member, accessCode: '482915' }),
    [`GET user/${member._id}/devices`]: () =>
      json([
        memberDeviceFixture({
          via: { direct: false, groups: [{ _id: 'group-1', name: 'Cleaners' }] },
          schedule: { windows: [{ days: [6, 0], start: '10:00', end: '14:00' }] },
        }),
      ]),
    [`GET user/${member._id}/accessTime`]: () =>
      json({
        at: '2026-11-23T10:00:00.000Z',
        locks: [
          {
            ...memberDeviceFixture({
              via: { direct: false, groups: [{ _id: 'group-1', name: 'Cleaners' }] },
            }),
            localTime: 'Mon 2026-11-23 11:00',
            canOpen: false,
            reason: 'outside_schedule',
            credentials: ['remote', 'code'],
            online: true,
            lastSeenAt: '2026-11-23T09:59:00.000Z',
          },
        ],
      }),
    'GET portal/devices': () => json({ items: [], total: 0 }),
    'GET portal/device/logs': () => json({ items: [deviceEventFixture()], total: 1 }),
    'GET portal/audit': () => json({ items: [auditFixture()], total: 1 }),
    ...routes,
  });
}

describe('MemberPage', () => {
  it('shows the person, their locks, how they reach them, and their history', async () => {
    const member = memberFixture();
    const { calls } = setup({}, member);
    expect(await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeInTheDocument();
    const locks = await screen.findByRole('list', { name: 'Their locks' });
    expect(within(locks).getByRole('link', { name: 'Front door' })).toHaveAttribute(
      'href',
      '/app/device/device-1',
    );
    expect(within(locks).getByText('Sat, Sun 10:00–14:00')).toBeInTheDocument();
    expect(within(locks).getByRole('link', { name: 'Through group Cleaners' })).toBeInTheDocument();
    // Whether they can open it right now, from the server's engine.
    expect(await within(locks).findByText('Outside their schedule')).toBeInTheDocument();
    // How they open it, in the words of the lock's "Who can open" tab.
    expect(within(locks).getByLabelText('Ways to open Front door')).toHaveTextContent('AppCode');
    // Their history: the lock events they took part in (with the lock's name) and the changes about them.
    const events = await screen.findByRole('list', { name: 'Lock events' });
    expect(within(events).getByText('Front door unlocked by Grace Hopper with a card')).toBeInTheDocument();
    expect(await screen.findByRole('list', { name: 'Admin changes' })).toBeInTheDocument();
    for (const path of ['portal/device/logs', 'portal/audit']) {
      const query = new URL(calls.find((c) => c.path === path)!.url, 'http://x').searchParams;
      expect(Object.fromEntries(query)).toMatchObject({ filterBy: 'userId', filterValue: member._id });
    }
    // The code is hidden until asked for.
    expect(screen.queryByText('482915')).not.toBeInTheDocument();
    await setupUser().click(screen.getByRole('button', { name: 'Show the code' }));
    expect(screen.getByText('482915')).toBeInTheDocument();
  });

  it('shows the rule a refused access code breaks on the field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { calls } = setup({
      'POST user/accessCode': () =>
        apiError(400, 'bad_request', 'Front door (Keypad code lock) takes codes of 4 to 8 digits'),
    });
    const user = setupUser();
    const input = await screen.findByLabelText('New access code');
    // Only digits go in.
    await user.type(input, '12ab34-5678 90');
    expect(input).toHaveValue('1234567890');
    await user.click(screen.getByRole('button', { name: 'Change code' }));
    await waitFor(() =>
      expect(input).toHaveAccessibleDescription(
        expect.stringContaining('Front door (Keypad code lock) takes codes of 4 to 8 digits'),
      ),
    );
    expect(calls.find((c) => c.path === 'user/accessCode')!.body).toEqual({
      userId: 'user-2',
      code: '1234567890',
    });
  });

  it('refuses a too-short code without asking, and generates a 6-digit one', async () => {
    const { calls } = setup({
      'POST user/accessCode': (call) => json({ accessCode: (call.body as { code: string }).code }),
    });
    const user = setupUser();
    const input = await screen.findByLabelText('New access code');
    await user.type(input, '12');
    await user.click(screen.getByRole('button', { name: 'Change code' }));
    expect(await screen.findByText('Access code must be 4 to 12 digits')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'user/accessCode')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Generate' }));
    expect((input as HTMLInputElement).value).toMatch(/^\d{6}$/);
    await user.click(screen.getByRole('button', { name: 'Change code' }));
    expect(await screen.findByText('Access code saved')).toBeInTheDocument();
  });

  it('asks before suspending, and suspends only when confirmed', async () => {
    let member = memberFixture();
    const { calls } = setup({
      'GET portal/user/user-2': () => json({ member, accessCode: null }),
      'POST portal/user/user-2/suspended': () => {
        member = { ...member, status: 'suspended' };
        return json(member);
      },
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Suspend' }));
    let dialog = await screen.findByRole('dialog', { name: 'Suspend Grace Hopper?' });
    expect(dialog).toHaveTextContent('They can no longer open any lock here.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'POST' && c.path.endsWith('/suspended'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Suspend' }));
    dialog = await screen.findByRole('dialog', { name: 'Suspend Grace Hopper?' });
    await user.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText('Grace Hopper can no longer open any lock here.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Activate' })).toBeInTheDocument();
    expect(
      calls.filter((c) => c.method === 'POST' && c.path === 'portal/user/user-2/suspended'),
    ).toHaveLength(1);
  });

  it('shows why the server refused a suspension (409)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup({
      'POST portal/user/user-2/suspended': () =>
        apiError(409, 'conflict', 'The portal owner cannot be suspended'),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Suspend' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Suspend' }));
    expect(await screen.findByText('The portal owner cannot be suspended')).toBeInTheDocument();
  });

  it('offers no suspension to someone who has not joined; removing withdraws the invitation', async () => {
    setup({}, memberFixture({ status: 'invited' }));
    const card = await screen.findByRole('region', { name: 'Membership' });
    expect(await within(card).findByText(/have not accepted the invitation yet/)).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Suspend' })).not.toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Remove from portal' })).toBeEnabled();
  });

  it('does not offer to suspend or remove the portal owner', async () => {
    setup(
      {},
      memberFixture({ _id: 'user-1', firstName: 'Ada', lastName: 'Lovelace', owner: true, role: 'admin' }),
    );
    expect(await screen.findByRole('button', { name: 'Suspend' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove from portal' })).toBeDisabled();
    expect(screen.getByText('The portal owner cannot be suspended or removed.')).toBeInTheDocument();
  });
});

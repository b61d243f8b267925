import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { groupFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const grace = { _id: 'user-2', email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' };
const alan = { _id: 'user-3', email: 'alan@example.com', firstName: 'Alan', lastName: 'Turing' };

describe('GroupPage', () => {
  it('adds and removes people, and deletes the group after confirming', async () => {
    storage.setAuthToken(validToken());
    let members = [grace];
    const { calls, router } = renderApp('/app/group/group-1', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/group/group-1': () => json(groupFixture({ userCount: members.length })),
      'GET group/group-1/users': () => json(members),
      'GET group/group-1/possibleUsers': () => json([grace, alan].filter((p) => !members.includes(p))),
      'GET group/group-1/devices': () =>
        json([{ _id: 'device-1', name: 'Front door', timeZone: 'America/New_York' }]),
      'GET group/group-1/possibleDevices': () => json([]),
      'PUT group/group-1/user/user-3': () => {
        members = [...members, alan];
        return json(undefined, 204);
      },
      'DELETE group/group-1/user/user-2': () => {
        members = members.filter((p) => p !== grace);
        return json(undefined, 204);
      },
      'PUT group/group-1/user/user-2': () => {
        members = [...members, grace];
        return json(undefined, 204);
      },
      'DELETE portal/group/group-1': () => json(undefined, 204),
      'GET portal/groups': () => json({ items: [], total: 0 }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Cleaners' })).toBeInTheDocument();
    const people = await screen.findByRole('list', { name: 'People' });
    expect(within(people).getByRole('link', { name: 'Grace Hopper' })).toBeInTheDocument();
    expect(screen.getByText('Every lock of the portal is in this group.')).toBeInTheDocument();

    const user = setupUser();
    await user.click(screen.getByRole('combobox', { name: 'Add a person' }));
    await user.click(await screen.findByRole('option', { name: 'Alan Turing (alan@example.com)' }));
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await within(people).findByRole('link', { name: 'Alan Turing' })).toBeInTheDocument();

    await user.click(within(people).getByRole('button', { name: 'Remove Grace Hopper from the group' }));
    await waitFor(() => expect(within(people).queryByRole('link', { name: 'Grace Hopper' })).toBeNull());
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(
      expect.arrayContaining(['PUT group/group-1/user/user-3', 'DELETE group/group-1/user/user-2']),
    );
    // A slip costs one click: Undo puts her back in the group.
    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    expect(
      await screen.findByText('Grace Hopper is in Cleaners again and opens its locks.'),
    ).toBeInTheDocument();
    expect(await within(people).findByRole('link', { name: 'Grace Hopper' })).toBeInTheDocument();
    expect(calls.filter((c) => `${c.method} ${c.path}` === 'PUT group/group-1/user/user-2')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Delete group' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Cleaners?' });
    expect(dialog).toHaveTextContent('Their direct access stays.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete group' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/group'));
    expect(calls.some((c) => c.method === 'DELETE' && c.path === 'portal/group/group-1')).toBe(true);
  });
});

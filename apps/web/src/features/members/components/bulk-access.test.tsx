import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { deviceFixture, groupFixture, memberFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const PEOPLE = [
  memberFixture({ _id: 'u-grace', firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' }),
  memberFixture({ _id: 'u-alan', firstName: 'Alan', lastName: 'Turing', email: 'alan@example.com' }),
  memberFixture({ _id: 'u-ada', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }),
];

function setup(bulk: MockHandler) {
  storage.setAuthToken(validToken());
  return renderApp('/app/user', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/users': () => json({ items: PEOPLE, total: PEOPLE.length }),
    'GET portal/devices': () =>
      json({ items: [deviceFixture({ _id: 'd-front', name: 'Front door' })], total: 1 }),
    'GET portal/groups': () => json({ items: [groupFixture()], total: 1 }),
    'POST portal/users/access': bulk,
  });
}

describe('the people list’s bulk bar', () => {
  it('gives the chosen people a lock in one request and says what it did', async () => {
    const { calls } = setup(() => json({ changed: 2, people: 2, lockIds: ['d-front'] }));
    const user = setupUser();
    await user.click(await screen.findByRole('checkbox', { name: 'Choose Grace Hopper' }));
    await user.click(screen.getByRole('checkbox', { name: 'Choose Ada Lovelace' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(bar).toHaveTextContent('2 people chosen');

    await user.click(within(bar).getByRole('button', { name: 'Give access…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Give 2 people access' });
    const submit = within(dialog).getByRole('button', { name: 'Give access to 2 people' });
    expect(submit).toBeDisabled();
    await user.click(within(dialog).getByRole('combobox', { name: 'Lock' }));
    await user.click(await screen.findByRole('option', { name: 'Front door' }));
    await user.click(submit);

    expect(await screen.findByText('Front door: access given')).toBeInTheDocument();
    const call = calls.find((c) => c.path === 'portal/users/access')!;
    expect(call.body).toEqual({
      userIds: ['u-grace', 'u-ada'],
      target: { kind: 'lock', id: 'd-front' },
      change: 'grant',
    });
    // Done: the choice is let go of, and the bar with it.
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Bulk actions' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('checkbox', { name: 'Choose Grace Hopper' })).not.toBeChecked();
  });

  it('chooses everyone shown at once, and removes them from a group', async () => {
    const { calls } = setup(() => json({ changed: 3, people: 3, lockIds: ['d-front'] }));
    const user = setupUser();
    await user.click(await screen.findByRole('checkbox', { name: 'Choose everyone shown' }));
    expect(screen.getByRole('region', { name: 'Bulk actions' })).toHaveTextContent('3 people chosen');
    await user.click(screen.getByRole('button', { name: 'Remove access…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove access from 3 people' });
    await user.click(within(dialog).getByRole('radio', { name: /A group/ }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Group' }));
    await user.click(await screen.findByRole('option', { name: 'Cleaners' }));
    await user.click(within(dialog).getByRole('button', { name: 'Remove access from 3 people' }));
    await screen.findByText('Cleaners: access removed');
    expect(calls.find((c) => c.path === 'portal/users/access')!.body).toEqual({
      userIds: ['u-grace', 'u-alan', 'u-ada'],
      target: { kind: 'group', id: 'group-1' },
      change: 'revoke',
    });
  });

  it('says nothing changed when the server refuses the whole request', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup(() => apiError(404, 'not_found', 'Person not found'));
    const user = setupUser();
    await user.click(await screen.findByRole('checkbox', { name: 'Choose Alan Turing' }));
    await user.click(screen.getByRole('button', { name: 'Give access…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Give 1 person access' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Lock' }));
    await user.click(await screen.findByRole('option', { name: 'Front door' }));
    await user.click(within(dialog).getByRole('button', { name: 'Give access to 1 person' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Nothing was changed');
    expect(alert).toHaveTextContent('Person not found');
    // The choice stays, to try again.
    expect(screen.getByRole('checkbox', { name: 'Choose Alan Turing' })).toBeChecked();
  });
});

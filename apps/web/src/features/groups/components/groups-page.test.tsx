import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { groupFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

describe('GroupsPage', () => {
  it('asks before Escape throws away a typed new group, and discards it on "Discard"', async () => {
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/app/group', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/groups': () => json({ items: [groupFixture()], total: 1 }),
    });
    const user = setupUser();
    await user.click((await screen.findAllByRole('button', { name: 'New group' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'New group' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Night shift');
    await user.keyboard('{Escape}');
    const question = await within(dialog).findByRole('alertdialog', { name: 'Discard changes?' });
    await user.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('Night shift');
    await user.keyboard('{Escape}');
    await user.click(await within(dialog).findByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New group' })).not.toBeInTheDocument());
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});

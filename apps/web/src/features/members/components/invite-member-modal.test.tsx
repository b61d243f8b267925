import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json, type MockHandler } from '@/testing/fetch-mock';
import { deviceFixture, groupFixture, memberFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

function setup(routes: Record<string, MockHandler> = {}) {
  storage.setAuthToken(validToken());
  return renderApp('/app/user', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/users': () =>
      json({
        items: [
          memberFixture(),
          memberFixture({
            _id: 'user-3',
            email: 'alan@example.com',
            firstName: 'Alan',
            lastName: 'Turing',
            status: 'invited',
          }),
        ],
        total: 2,
      }),
    'GET portal/groups': () => json({ items: [groupFixture()], total: 1 }),
    'GET portal/devices': (call) =>
      json(
        call.url.includes('search=back')
          ? { items: [deviceFixture({ _id: 'device-2', name: 'Back gate' })], total: 1 }
          : { items: [deviceFixture()], total: 1 },
      ),
    ...routes,
  });
}

describe('Add person (an invitation by email)', () => {
  it('shows the server’s 400 on the email field', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    setup({
      'POST user/invite': () =>
        apiError(400, 'bad_request', 'Invalid input', [
          { path: 'body.email', message: 'is on a blocked domain' },
        ]),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Add person' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add person' });
    const email = within(dialog).getByLabelText(/^Email/);
    await user.type(email, 'someone@blocked.example');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(email).toHaveAccessibleDescription('Email is on a blocked domain'));
  });

  it('invites with a role, groups and locks found by search', async () => {
    const { calls } = setup({
      'POST user/invite': () =>
        json({ member: memberFixture({ _id: 'user-4', email: 'new@example.com', status: 'invited' }) }, 201),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Add person' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add person' });
    await user.type(within(dialog).getByLabelText(/^Email/), 'new@example.com');
    await user.type(within(dialog).getByLabelText('First name'), 'Nora');
    await user.click(within(dialog).getByText('Admin: runs the portal'));
    await user.click(within(dialog).getByRole('combobox', { name: 'Groups' }));
    await user.click(await screen.findByRole('option', { name: 'Cleaners' }));
    const locks = within(dialog).getByRole('combobox', { name: 'Locks' });
    await user.click(locks);
    await user.type(locks, 'back');
    await user.click(await screen.findByRole('option', { name: 'Back gate' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent')).toBeInTheDocument();
    // Nobody chooses a password for someone else: the form has none to send.
    expect(calls.find((c) => c.path === 'user/invite')!.body).toEqual({
      email: 'new@example.com',
      firstName: 'Nora',
      lastName: '',
      role: 'admin',
      groupIds: ['group-1'],
      deviceIds: ['device-2'],
    });
  });

  it('tells an admin with an unconfirmed address to confirm it first, and sends nothing', async () => {
    const { calls } = setup({
      'GET auth': () =>
        json(sessionFixture(['admin'], { user: { ...sessionFixture().user, emailVerified: false } })),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Add person' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add person' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(/confirm your email first/i);
    expect(within(dialog).getByRole('link', { name: 'Confirm your email address' })).toHaveAttribute(
      'href',
      '/must-activate',
    );
    expect(within(dialog).getByRole('button', { name: 'Send invitation' })).toBeDisabled();
    expect(calls.some((c) => c.path === 'user/invite')).toBe(false);
  });

  it('marks invited people and sends their invitation again', async () => {
    const { calls } = setup({
      'POST user/re-invite/user-3': () =>
        json({ member: memberFixture({ _id: 'user-3', email: 'alan@example.com', status: 'invited' }) }),
    });
    const table = await screen.findByRole('table');
    const row = within(table).getByRole('link', { name: 'Alan Turing' }).closest('tr')!;
    expect(within(row).getAllByText('Invited').length).toBeGreaterThan(0);
    expect(within(table).queryByRole('button', { name: 'Re-invite Grace Hopper' })).not.toBeInTheDocument();
    // One button in the row's actions column, one under the name on phones (CSS shows one).
    await setupUser().click(within(row).getAllByRole('button', { name: 'Re-invite Alan Turing' })[0]!);
    expect(await screen.findByText('Invitation sent again')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.path === 'user/re-invite/user-3')).toBe(true);
  });

  it('asks before Escape throws away what was typed, and keeps it on "Keep editing"', async () => {
    setup();
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Add person' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add person' });
    await user.type(within(dialog).getByLabelText(/^Email/), 'kept@example.com');
    await user.keyboard('{Escape}');
    const question = await within(dialog).findByRole('alertdialog', { name: 'Discard changes?' });
    expect(within(question).getByRole('button', { name: 'Keep editing' })).toHaveFocus();
    await user.click(within(question).getByRole('button', { name: 'Keep editing' }));
    expect(within(dialog).queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Email/)).toHaveValue('kept@example.com');
    // Asked again, "Discard" closes the dialog.
    await user.keyboard('{Escape}');
    await user.click(await within(dialog).findByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add person' })).not.toBeInTheDocument());
  });

  it('closes at once on Escape when nothing was typed', async () => {
    setup();
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Add person' }));
    await screen.findByRole('dialog', { name: 'Add person' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add person' })).not.toBeInTheDocument());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('gives a code and a schedule at the chosen lock in the same single request', async () => {
    const { calls } = setup({
      'POST user/invite': () =>
        json({ member: memberFixture({ _id: 'user-4', email: 'new@example.com', status: 'invited' }) }, 201),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Add person' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add person' });
    await user.type(within(dialog).getByLabelText(/^Email/), 'new@example.com');
    const locks = within(dialog).getByRole('combobox', { name: 'Locks' });
    await user.click(locks);
    await user.type(locks, 'back');
    await user.click(await screen.findByRole('option', { name: 'Back gate' }));
    await user.type(within(dialog).getByLabelText('Access code'), '48a15');
    await user.click(within(dialog).getByLabelText(/^Only on certain days and hours/));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Friday' }));
    await user.clear(within(dialog).getByLabelText('From'));
    await user.type(within(dialog).getByLabelText('From'), '07:30');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invitation sent')).toBeInTheDocument();
    const sent = calls.filter((c) => c.method === 'POST');
    expect(sent.map((c) => c.path)).toEqual(['user/invite']);
    expect(sent[0]!.body).toEqual({
      email: 'new@example.com',
      firstName: '',
      lastName: '',
      role: 'user',
      groupIds: [],
      deviceIds: ['device-2'],
      // Only digits reach the field.
      accessCode: '4815',
      schedule: { windows: [{ days: [1, 2, 3, 4], start: '07:30', end: '18:00' }] },
    });
    // Many fields typed on a shared machine: more time than the default.
  }, 60_000);

  it('asks for a lock when times are given without one, and sends nothing', async () => {
    const { calls } = setup();
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Add person' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add person' });
    await user.type(within(dialog).getByLabelText(/^Email/), 'new@example.com');
    await user.click(within(dialog).getByLabelText(/^Only on certain days and hours/));
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('Choose the locks these times are for')).toBeInTheDocument();
    expect(calls.some((c) => c.path === 'user/invite')).toBe(false);
  });

  it('says when an invited person was invited, not that they joined', async () => {
    setup();
    const table = await screen.findByRole('table');
    const invited = within(table).getByRole('link', { name: 'Alan Turing' }).closest('tr')!;
    expect(within(invited).getByText(/^Invited [A-Z][a-z]{2} \d/)).toBeInTheDocument();
    const joined = within(table).getByRole('link', { name: 'Grace Hopper' }).closest('tr')!;
    expect(within(joined).queryByText(/^Invited /)).not.toBeInTheDocument();
  });
});

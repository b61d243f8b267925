import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json } from '@/testing/fetch-mock';
import { memberFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

describe('MembersPage', () => {
  it('lists people and filters by role or status', async () => {
    storage.setAuthToken(validToken());
    const { calls } = renderApp('/app/user', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/users': () =>
        json({
          items: [
            memberFixture(),
            memberFixture({ _id: 'u3', email: 'x@y.z', firstName: '', lastName: '', status: 'suspended' }),
          ],
          total: 2,
        }),
    });
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute(
      'href',
      '/app/user/user-2',
    );
    expect(within(table).getByRole('link', { name: 'x@y.z' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Show' }));
    await user.click(await screen.findByRole('option', { name: 'Suspended' }));
    await waitFor(() =>
      expect(
        calls.some((c) => c.url.includes('filterBy=status') && c.url.includes('filterValue=suspended')),
      ).toBe(true),
    );
  });

  it('adds a person and shows their generated password once', async () => {
    storage.setAuthToken(validToken());
    const added = memberFixture({
      _id: 'user-7',
      email: 'new@example.com',
      firstName: 'Nia',
      lastName: 'Ode',
    });
    const { calls } = renderApp('/app/user', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/users': () => json({ items: [], total: 0 }),
      'POST portal/user': () => json({ member: added, initialPassword: 'Tide-Amber-42' }, 201),
    });
    const user = userEvent.setup();
    await user.click((await screen.findAllByRole('button', { name: 'Add person' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Add person' });
    await user.type(within(dialog).getByLabelText(/^Email/), 'New@Example.com ');
    await user.type(within(dialog).getByLabelText('First name'), 'Nia');
    await user.type(within(dialog).getByLabelText('Last name'), 'Ode');
    await user.click(within(dialog).getByRole('button', { name: 'Add person' }));
    const secret = await screen.findByRole('dialog', { name: 'Share their first password' });
    expect(within(secret).getByText('Tide-Amber-42')).toBeInTheDocument();
    expect(within(secret).getByText(/you will not see it again/i)).toBeInTheDocument();
    const body = calls.find((c) => c.path === 'portal/user' && c.method === 'POST')!.body as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({ firstName: 'Nia', lastName: 'Ode', role: 'user' });
    expect(body).not.toHaveProperty('password');
    await user.click(within(secret).getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(screen.queryByText('Tide-Amber-42')).not.toBeInTheDocument());
  });

  it('marks someone already in the portal on the email field (409)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    storage.setAuthToken(validToken());
    renderApp('/app/user', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/users': () => json({ items: [memberFixture()], total: 1 }),
      'POST portal/user': () =>
        apiError(409, 'conflict', 'grace@example.com is already a member of this portal'),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add person' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add person' });
    await user.type(within(dialog).getByLabelText(/^Email/), 'grace@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Add person' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText(/^Email/)).toHaveAccessibleDescription(
        'Grace@example.com is already a member of this portal',
      ),
    );
  });
});

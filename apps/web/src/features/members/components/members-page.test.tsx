import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storage } from '@/lib/storage';
import { apiError, json } from '@/testing/fetch-mock';
import { memberFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

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
    const user = setupUser();
    await user.click(screen.getByRole('combobox', { name: 'Show' }));
    await user.click(await screen.findByRole('option', { name: 'Suspended' }));
    await waitFor(() =>
      expect(
        calls.some((c) => c.url.includes('filterBy=status') && c.url.includes('filterValue=suspended')),
      ).toBe(true),
    );
  });

  it('marks someone already in the portal on the email field (409)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    storage.setAuthToken(validToken());
    renderApp('/app/user', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/users': () => json({ items: [memberFixture()], total: 1 }),
      'POST user/invite': () =>
        apiError(409, 'conflict', 'grace@example.com is already a member of this portal'),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Add person' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add person' });
    await user.type(within(dialog).getByLabelText(/^Email/), 'grace@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText(/^Email/)).toHaveAccessibleDescription(
        'grace@example.com is already a member of this portal',
      ),
    );
  });
});

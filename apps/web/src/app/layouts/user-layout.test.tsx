import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';

describe("a basic user's own credentials page", () => {
  it('opens in their own area, with their menu, from the address their locks page links to', async () => {
    storage.setAuthToken(validToken());
    const session = sessionFixture(['user']);
    const { router } = renderApp('/sync/user', {
      'GET auth': () => json(session),
      [`GET user/${session.user._id}/sync`]: () => json({ locks: [] }),
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/sync'));
    expect(await screen.findByText('No locks')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    // Their area's menu, the way back to their locks in it.
    expect(within(nav).getByRole('link', { name: 'Locks' })).toHaveAttribute('href', '/user');
    expect(within(nav).getByRole('link', { name: 'Help' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Sync center' })).not.toBeInTheDocument();
  });

  it('stays where it is for an admin, who chooses the person there', async () => {
    storage.setAuthToken(validToken());
    const { router } = renderApp('/sync/user', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/scopedUsers': () => json([]),
    });
    expect(await screen.findByText('Choose a person')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sync/user');
  });
});

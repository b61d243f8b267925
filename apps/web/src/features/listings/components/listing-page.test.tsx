import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { listingFixture, sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const listing = listingFixture();

function setup(path: string) {
  storage.setAuthToken(validToken());
  return renderApp(path, {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET listing/listing-1': () => json(listing),
    'GET listing/listing-1/request': () => json({ items: [], total: 0 }),
    'GET listing/listing-1/review': () => json({ items: [], total: 0 }),
  });
}

describe('the listing page', () => {
  it("opens on the day's stays and calendar, the other parts one tab away, the tab in the address", async () => {
    const { router } = setup('/app/listing/listing-1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbour flat' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Stays & calendar',
      'Details & sharing',
      'Reviews',
      'Locks & access',
    ]);
    expect(screen.getByRole('tab', { name: 'Stays & calendar' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('region', { name: 'Calendar' })).toBeInTheDocument();
    // The other tabs' sections are not on the page until chosen.
    expect(screen.queryByRole('region', { name: 'Reviews' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Who looks after it' })).not.toBeInTheDocument();
    // What guests see is one click away from every tab.
    expect(screen.getByRole('link', { name: /^Request page/ })).toHaveAttribute('href', '/s/r/listing-1');

    await setupUser().click(screen.getByRole('tab', { name: 'Reviews' }));
    expect(await screen.findByRole('region', { name: 'Reviews' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Calendar' })).not.toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=reviews');
  });

  it('opens the tab a link names', async () => {
    setup('/app/listing/listing-1?tab=access');
    expect(await screen.findByRole('region', { name: 'Who looks after it' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Locks & access' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Calendar' })).not.toBeInTheDocument());
  });

  it('shows the price per night on the details tab', async () => {
    setup('/app/listing/listing-1?tab=details');
    expect(await screen.findByText('€120.00 per night')).toBeInTheDocument();
  });

  it('asks before Escape throws away a typed access-list entry', async () => {
    setup('/app/listing/listing-1?tab=access');
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Add someone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add someone' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Cleaner');
    await user.keyboard('{Escape}');
    const question = await within(dialog).findByRole('alertdialog', { name: 'Discard changes?' });
    await user.click(within(question).getByRole('button', { name: 'Discard' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Add someone' })).not.toBeInTheDocument(),
    );
  });
});

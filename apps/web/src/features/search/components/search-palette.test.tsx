import type { SearchAnswer } from '@latchkey/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const ANSWER: SearchAnswer = {
  q: 'gra',
  results: [
    { kind: 'person', _id: 'u1', title: 'Grace Hopper', detail: 'grace@example.com', ref: null },
    { kind: 'lock', _id: 'd1', title: 'Garage', detail: 'Online', ref: null },
    { kind: 'card', _id: 'c1', title: 'Card 04A31B22', detail: 'UID 04A31B22 · held by Grace', ref: 'u1' },
  ],
};

function setup() {
  storage.setAuthToken(validToken());
  return renderApp('/app', {
    'GET auth': () => json(sessionFixture(['admin'])),
    'GET portal/search': () => json(ANSWER),
  });
}

describe('the search palette', () => {
  it('opens with Ctrl+K, moves with the arrows and opens the active result with Enter', async () => {
    const { router, calls } = setup();
    const user = setupUser();
    await screen.findByRole('button', { name: 'Search' });
    await user.keyboard('{Control>}k{/Control}');
    const box = await screen.findByRole('combobox', { name: /search people, locks/i });
    expect(box).toHaveFocus();
    await user.type(box, 'gr');
    expect(screen.getByRole('status')).toHaveTextContent('Type at least 3 characters.');
    await user.type(box, 'a');
    const list = screen.getByRole('listbox', { name: 'Results' });
    const options = await within(list).findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'Grace Hoppergrace@example.com',
      'GarageOnline',
      'Card 04A31B22UID 04A31B22 · held by Grace',
    ]);
    expect(within(list).getByRole('group', { name: 'Locks' })).toBeInTheDocument();
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', options[0]!.id);

    await user.keyboard('{ArrowDown}');
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    expect(box).toHaveAttribute('aria-activedescendant', options[1]!.id);
    // Up from the top wraps to the last; down from the last wraps to the top.
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(options[2]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(options[1]).toHaveAttribute('aria-selected', 'true');

    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/device/d1'));
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(calls.find((c) => c.path === 'portal/search')!.url).toContain('q=gra');
  });

  it('opens with "/" too, and a card opens its holder’s page', async () => {
    const { router } = setup();
    const user = setupUser();
    await screen.findByRole('button', { name: 'Search' });
    await user.keyboard('/');
    const box = await screen.findByRole('combobox');
    await user.type(box, 'gra');
    await within(screen.getByRole('listbox')).findAllByRole('option');
    await user.keyboard('{ArrowUp}{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/user/u1'));
  });

  it('says when nothing matches', async () => {
    storage.setAuthToken(validToken());
    renderApp('/app', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/search': () => json({ q: 'zzz', results: [] }),
    });
    const user = setupUser();
    await user.click(await screen.findByRole('button', { name: 'Search' }));
    await user.type(await screen.findByRole('combobox'), 'zzz');
    expect(await screen.findByText('Nothing matches “zzz”.')).toBeInTheDocument();
  });
});

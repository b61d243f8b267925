import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { storage } from '@/lib/storage';
import { json } from '@/testing/fetch-mock';
import { sessionFixture } from '@/testing/fixtures';
import { validToken } from '@/testing/jwt';
import { renderApp } from '@/testing/render-app';
import { setupUser } from '@/testing/user';

const stubMatchMedia = window.matchMedia;
afterEach(() => {
  window.localStorage.clear();
  window.matchMedia = stubMatchMedia;
});

/** Media queries answered for a window of this size with a mouse (the setup's stub matches nothing). */
function windowOf(width: number, height: number) {
  window.matchMedia = (query: string) => {
    const limit = (feature: string) =>
      Number(new RegExp(`\\(${feature}: ([\\d.]+)px\\)`).exec(query)?.[1] ?? NaN);
    const matches = width <= limit('max-width') || height <= limit('max-height');
    return { ...stubMatchMedia(query), matches };
  };
}

const expanded = (nav: HTMLElement) =>
  Object.fromEntries(
    within(nav)
      .getAllByRole('button')
      .filter((button) => button.hasAttribute('aria-expanded'))
      .map((button) => [button.textContent, button.getAttribute('aria-expanded') === 'true']),
  );

const navigation = async () => screen.findByRole('navigation', { name: 'Main navigation' });

describe('the signed-in navigation', () => {
  it("lists an admin's screens under headed sections, each folding away and opening again", async () => {
    storage.setAuthToken(validToken());
    renderApp('/app/no-such-page', { 'GET auth': () => json(sessionFixture(['admin'])) });
    const nav = await navigation();
    const headings = within(nav)
      .getAllByRole('button')
      .map((button) => button.textContent);
    expect(headings).toEqual(['Locks & access', 'People', 'Rentals', 'Billing & shop', 'Settings']);

    const section = (name: string) => within(nav).getByRole('group', { name });
    const labels = (name: string) =>
      within(section(name))
        .getAllByRole('link')
        .map((link) => link.textContent);
    expect(labels('Locks & access')).toEqual([
      'Locks',
      'Offline locks',
      'Alerts',
      'Zones',
      'Lockouts',
      'Keys',
      'Company codes',
      'Sync center',
    ]);
    expect(labels('People')).toEqual(['People', 'Groups', 'Cards', 'Access requests']);
    expect(labels('Rentals')).toEqual(['Listings', 'Rental center', 'Reviews']);
    expect(labels('Billing & shop')).toEqual(['Billing', 'Plan', 'Shop']);
    expect(labels('Settings')).toEqual(['Settings', 'Change log', 'Help & support']);
    // Looked up now and then: About is in the account menu, desk readers on the settings screen.
    expect(within(nav).queryByRole('link', { name: 'About' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Desk readers' })).not.toBeInTheDocument();
    // The day's starting points sit above the sections, without a heading.
    const first = within(nav).getAllByRole('link').slice(0, 2);
    expect(first.map((link) => link.textContent)).toEqual(['Dashboard', 'Activity']);
    // Platform staff's screens are not an admin's.
    expect(within(nav).queryByRole('link', { name: 'Developer tools' })).not.toBeInTheDocument();

    const user = setupUser();
    const people = within(nav).getByRole('button', { name: 'People' });
    expect(people).toHaveAttribute('aria-expanded', 'true');
    await user.click(people);
    expect(people).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(within(nav).queryByRole('link', { name: 'Groups' })).not.toBeInTheDocument());
    // Remembered on this device.
    expect(JSON.parse(window.localStorage.getItem('latchkey.navFolded')!)).toEqual(['people']);
    await user.click(people);
    expect(await within(nav).findByRole('link', { name: 'Groups' })).toBeVisible();
  });

  it('opens the section of the page the person arrives at, even if they folded it', async () => {
    window.localStorage.setItem('latchkey.navFolded', JSON.stringify(['settings', 'people']));
    storage.setAuthToken(validToken());
    renderApp('/app/adminChangeLog', {
      'GET auth': () => json(sessionFixture(['admin'])),
    });
    const nav = await navigation();
    await waitFor(() =>
      expect(within(nav).getByRole('button', { name: 'Settings' })).toHaveAttribute('aria-expanded', 'true'),
    );
    // The section's links show once it has unfolded (a transition): waited for, not read at once.
    expect(await within(nav).findByRole('link', { name: 'Change log' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(nav).getByRole('button', { name: 'People' })).toHaveAttribute('aria-expanded', 'false');
  });

  it("shows a folded section's counts on its heading", async () => {
    window.localStorage.setItem('latchkey.navFolded', JSON.stringify(['rentals']));
    storage.setAuthToken(validToken());
    renderApp('/app/about', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/requests/waiting': () => json({ items: [], total: 3 }),
    });
    const nav = await navigation();
    const rentals = within(nav).getByRole('button', { name: /^Rentals/ });
    expect(rentals).toHaveAttribute('aria-expanded', 'false');
    expect(await within(rentals).findByLabelText('3 requests waiting for an answer')).toBeInTheDocument();
    await setupUser().click(rentals);
    await waitFor(() =>
      expect(within(rentals).queryByLabelText('3 requests waiting for an answer')).not.toBeInTheDocument(),
    );
  });

  it("puts platform staff's own section first and, on a 900 px window, folds their portal's rarer sections", async () => {
    windowOf(1440, 900);
    storage.setAuthToken(validToken());
    renderApp('/app/no-such-page', { 'GET auth': () => json(sessionFixture(['admin', 'superAdmin'])) });
    const nav = await navigation();
    // Below the day's starting points and above the portal's sections: no scrolling to the console.
    expect(Object.keys(expanded(nav))).toEqual([
      'Platform',
      'Locks & access',
      'People',
      'Rentals',
      'Billing & shop',
      'Settings',
    ]);
    // Every section open would be about 1,000 px; the least daily fold until the list fits.
    expect(expanded(nav)).toEqual({
      Platform: true,
      'Locks & access': true,
      People: false,
      Rentals: false,
      'Billing & shop': false,
      Settings: true,
    });
    expect(within(nav).getByRole('link', { name: 'Support inbox' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Help & support' })).toBeInTheDocument();
    // Not a choice of the person's: nothing is remembered until they fold or open a section.
    expect(JSON.parse(window.localStorage.getItem('latchkey.navFolded') ?? 'null')).toBeNull();
  });

  it('folds Rentals for a reseller on a 900 px window, keeping their own entry and Help & support in view', async () => {
    windowOf(1440, 900);
    storage.setAuthToken(validToken());
    renderApp('/app/no-such-page', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET reseller/mine': () => json({ reseller: { _id: 'r1', name: 'Keystone Integrators' } }),
    });
    const nav = await navigation();
    expect(await within(nav).findByRole('link', { name: 'Reseller' })).toBeInTheDocument();
    await waitFor(() => expect(expanded(nav)['Rentals']).toBe(false));
    expect(expanded(nav)).toEqual({
      'Locks & access': true,
      People: true,
      Rentals: false,
      'Billing & shop': true,
      Settings: true,
    });
  });

  it("opens the current page's section whatever else folds, and only it on a phone", async () => {
    windowOf(390, 844);
    storage.setAuthToken(validToken());
    renderApp('/app/group', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/groups': () => json({ items: [], total: 0 }),
    });
    const nav = await navigation();
    expect(expanded(nav)).toEqual({
      'Locks & access': false,
      People: true,
      Rentals: false,
      'Billing & shop': false,
      Settings: false,
    });
  });

  it('lights Help & support on the support requests too', async () => {
    storage.setAuthToken(validToken());
    renderApp('/app/support', {
      'GET auth': () => json(sessionFixture(['admin'])),
      'GET portal/support': () => json({ items: [], total: 0 }),
    });
    const nav = await navigation();
    expect(await within(nav).findByRole('link', { name: 'Help & support' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it("keeps a basic user's short list without headings", async () => {
    storage.setAuthToken(validToken());
    renderApp('/user/no-such-page', { 'GET auth': () => json(sessionFixture(['user'])) });
    const nav = await navigation();
    expect(within(nav).queryAllByRole('button')).toEqual([]);
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Locks', 'QR code', 'Access requests', 'Rental center', 'Help', 'Settings']);
  });
});

describe('an unknown address in a signed-in area', () => {
  it('shows the not-found inside the frame, the menu kept and the way back to the home page', async () => {
    storage.setAuthToken(validToken());
    renderApp('/app/no/such/page', { 'GET auth': () => json(sessionFixture(['admin'])) });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(await navigation()).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to your home page' })).toHaveAttribute(
      'href',
      '/app/dashboard',
    );
  });

  it('takes a basic user back to their own locks', async () => {
    storage.setAuthToken(validToken());
    renderApp('/user/nothing-here', { 'GET auth': () => json(sessionFixture(['user'])) });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(await navigation()).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to your home page' })).toHaveAttribute('href', '/user');
  });
});
